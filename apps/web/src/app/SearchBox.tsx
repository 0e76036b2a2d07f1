import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { searchPath } from '../routes/paths';
import { SearchIcon } from '../shared/icons';

/** Submits with Enter or the icon; an empty (or blank) text does nothing (spec section 5). */
export function SearchBox({ id, onSearch }: { id: string; onSearch?: () => void }) {
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('query') ?? '');
  const navigate = useNavigate();

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    navigate(searchPath(query));
    onSearch?.();
  }

  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search tools
      </label>
      <input id={id} type="search" value={text} placeholder="Search tools" autoComplete="off" onChange={(e) => setText(e.target.value)} />
      <button type="submit" aria-label="Search" className="icon-button">
        <SearchIcon />
      </button>
    </form>
  );
}
