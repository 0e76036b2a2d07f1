import { Link } from 'react-router-dom';
import { SearchBox } from '../../../tools/SearchBox';
import { PATHS } from '../../../routes/paths';
import { useTitle } from '../../../shared/useTitle';

/** The text for /404 (docs/web-app.md#forms-and-error-texts), for every unknown path, and for a failed share. */
export const NOT_FOUND_TEXT = 'That...is not here. Please...look again. Certainly...what you seek can be found :-D.';

/** The 404 page; a page that knows what is missing names it (`title`, `text`). */
export function NotFoundPage({ title = 'Page not found', text = NOT_FOUND_TEXT }: { title?: string; text?: string }) {
  useTitle(title);
  return (
    <article className="page status-page">
      <p className="status-code" aria-hidden="true">
        404
      </p>
      <h1>{title}</h1>
      <p className="status-text">{text}</p>
      <div className="status-search">
        <SearchBox id="not-found-search" />
      </div>
      <p className="status-links">
        <Link className="button button-primary" to={PATHS.root}>
          Home
        </Link>
        <Link className="button" to={PATHS.tools}>
          All tools
        </Link>
        <Link className="button" to={PATHS.help}>
          Help
        </Link>
      </p>
    </article>
  );
}
