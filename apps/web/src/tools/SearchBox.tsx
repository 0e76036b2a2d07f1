import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { searchPath } from '../routes/paths';
import { SearchIcon } from '../shared/icons';
import { TOOLS } from './registry';
import { search } from './search';
import type { Tool } from './types';

/** How many tools the suggestions list at most; the search page has them all. */
const MAX_SUGGESTIONS = 6;

/**
 * The search box of the top bar, the sidebar, /search and the not-found page. Submits with Enter or the
 * icon button; an empty (or blank) text does nothing (docs/web-app.md#forms-and-error-texts). It shows the current query while
 * on /search.
 *
 * As you type, it suggests tools: an ARIA 1.2 combobox with a listbox popup (WAI-ARIA Authoring
 * Practices, "list autocomplete"). Down and Up arrows move through the suggestions (wrapping), Enter
 * opens the highlighted tool, Escape closes the list (a second Escape clears the text); with nothing
 * highlighted, Enter searches as before. Focus stays in the text field throughout
 * (aria-activedescendant).
 */
export function SearchBox({ id }: { id: string }) {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  // Re-mounted when the query in the URL changes, so every box shows the current search.
  return <SearchForm key={query} id={id} initial={query} />;
}

function SearchForm({ id, initial }: { id: string; initial: string }) {
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const suggestions = useMemo(() => (text.trim() ? search(TOOLS, text).slice(0, MAX_SUGGESTIONS) : []), [text]);
  const expanded = open && suggestions.length > 0;
  const listId = `${id}-suggestions`;
  const optionId = (index: number) => `${listId}-${index}`;

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function openTool(tool: Tool) {
    close();
    setText('');
    navigate(tool.path);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = expanded && active >= 0 ? suggestions[active] : undefined;
    if (chosen) {
      openTool(chosen);
      return;
    }
    const query = text.trim();
    if (!query) return;
    close();
    navigate(searchPath(query));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = suggestions.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      const down = event.key === 'ArrowDown';
      if (!expanded) {
        setOpen(true);
        setActive(down ? 0 : count - 1);
        return;
      }
      setActive((current) => (down ? (current + 1) % count : current <= 0 ? count - 1 : current - 1));
    } else if (event.key === 'Escape') {
      if (expanded) {
        // Closes the list only (not a dialog or panel around the box).
        event.preventDefault();
        event.stopPropagation();
        close();
      } else if (text) {
        event.preventDefault();
        event.stopPropagation();
        setText('');
      }
    }
  }

  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search tools
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        value={text}
        placeholder="Search tools"
        autoComplete="off"
        enterKeyHint="search"
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <button type="submit" aria-label="Search" className="icon-button">
        <SearchIcon />
      </button>
      <ul id={listId} role="listbox" aria-label="Suggested tools" className="search-suggestions" hidden={!expanded}>
        {expanded
          ? suggestions.map((tool, index) => (
              <li
                key={tool.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'active' : undefined}
                // Keeps the focus in the field, so the click lands before the list closes on blur.
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => openTool(tool)}
              >
                <span className="search-suggestion-name">{tool.name}</span>
                <span className="search-suggestion-description">{tool.description}</span>
              </li>
            ))
          : null}
      </ul>
    </form>
  );
}
