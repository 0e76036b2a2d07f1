import { useSearchParams } from 'react-router-dom';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';
import { TOOLS } from '../../../tools/registry';
import { search } from '../../../tools/search';
import { ToolCard } from '../../../tools/ToolCard';

export function SearchPage() {
  const [params] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  const results = query ? search(TOOLS, query) : [];
  return (
    <Page title={query ? `Search: ${query}` : 'Search'} wide>
      {!query ? (
        <p className="empty-state">Type what you want to do in the search box, for example “base64”, “qr code” or “json”.</p>
      ) : results.length === 0 ? (
        <div className="empty-state" role="status">
          <p>
            No tools match “{query}”. Try another word, or <Link to={PATHS.tools}>browse all tools</Link>.
          </p>
        </div>
      ) : (
        <>
          <p role="status">
            {results.length} {results.length === 1 ? 'tool matches' : 'tools match'} “{query}”.
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
