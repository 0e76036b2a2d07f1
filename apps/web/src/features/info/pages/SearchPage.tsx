import { Link, useSearchParams } from 'react-router-dom';
import { SearchBox } from '../../../tools/SearchBox';
import { PATHS, searchPath } from '../../../routes/paths';
import { Page } from '../../../shared/Page';
import { TOOLS } from '../../../tools/registry';
import { search } from '../../../tools/search';
import { ToolCard } from '../../../tools/ToolCard';

const SUGGESTIONS = ['base64', 'json', 'qr code', 'password', 'pdf'];

function Suggestions() {
  return (
    <p className="suggestions">
      Try:{' '}
      {SUGGESTIONS.map((s) => (
        <Link key={s} className="chip" to={searchPath(s)}>
          {s}
        </Link>
      ))}
    </p>
  );
}

/** /search?query=...: the registry's tools ranked by name, keywords and description (tools/search.ts). */
export function SearchPage() {
  const [params] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  const results = query ? search(TOOLS, query) : [];
  return (
    <Page title={query ? `Search: ${query}` : 'Search'} wide>
      {/* On phones the top bar has no search box: refine the search here. */}
      <div className="page-search">
        <SearchBox id="page-search" />
      </div>
      {!query ? (
        <div className="empty-state">
          <p>Type what you want to do in the search box and press Enter.</p>
          <Suggestions />
        </div>
      ) : results.length === 0 ? (
        <div className="empty-state" role="status">
          <p>
            <strong>No tools match “{query}”.</strong> Check the spelling, try another word, or{' '}
            <Link to={PATHS.tools}>browse all tools</Link>.
          </p>
          <Suggestions />
        </div>
      ) : (
        <>
          <p role="status" className="result-count">
            {results.length} {results.length === 1 ? 'tool matches' : 'tools match'} “{query}”
          </p>
          <ul className="tool-grid" aria-label="Search results">
            {results.map((tool) => (
              <ToolCard key={tool.id} tool={tool} />
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}
