import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { useTitle } from '../../../shared/useTitle';

export const NOT_FOUND_TEXT = 'That...is not here. Please...look again. Certainly...what you seek can be found :-D.';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <article className="page not-found">
      <h1>Not found</h1>
      <p className="not-found-text">{NOT_FOUND_TEXT}</p>
      <p>
        <Link to={PATHS.root}>Home</Link> · <Link to={PATHS.tools}>All tools</Link>
      </p>
    </article>
  );
}
