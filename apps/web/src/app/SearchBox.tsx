import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { searchPath } from '../routes/paths';
import { SearchIcon } from '../shared/icons';

/**
 * The search box of the top bar and the sidebar. Submits with Enter or the icon button; an empty
 * (or blank) text does nothing (spec section 5). It shows the current query while on /search.
 */
export function SearchBox({ id }: { id: string }) {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  // Re-mounted when the query in the URL changes, so every box shows the current search.
  return <SearchForm key={query} id={id} initial={query} />;
}

function SearchForm({ id, initial }: { id: string; initial: string }) {
  const [text, setText] = useState(initial);
  const navigate = useNavigate();

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    navigate(searchPath(query));
  }

  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search tools
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder="Search tools"
        autoComplete="off"
        enterKeyHint="search"
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" aria-label="Search" className="icon-button">
        <SearchIcon />
      </button>
    </form>
  );
}
