import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { useTitle } from '../../../shared/useTitle';
import { categoryAnchor, TOOLS, toolsByCategory } from '../../../tools/registry';
import { ToolCard } from '../../../tools/ToolCard';

const FEATURED = ['base64-encode', 'barcode-creator', 'password-generator', 'markdown-html', 'guid-generator', 'pdf-image'];

export function HomePage() {
  useTitle('');
  const featured = FEATURED.map((id) => TOOLS.find((t) => t.id === id)).filter((t) => t !== undefined);
  return (
    <div className="home">
      <section className="hero">
        <h1>Small tools that get things done, right in your browser</h1>
        <p className="lead">
          Converters, generators, barcode and document tools that run on your device — your files never leave it unless you ask for a server
          conversion. Providers can sell from a public page, and your browsers can share links with each other.
        </p>
        <p className="hero-actions">
          <Link className="button button-primary button-large" to={PATHS.tools}>
            Browse all {TOOLS.length} tools
          </Link>
          <Link className="button button-large" to={PATHS.register}>
            Create a free account
          </Link>
        </p>
      </section>
      <section aria-labelledby="featured">
        <h2 id="featured">Popular tools</h2>
        <ul className="tool-grid">
          {featured.map((tool) => (
            <ToolCard key={tool.id} tool={tool} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="categories">
        <h2 id="categories">Categories</h2>
        <ul className="category-list">
          {toolsByCategory().map(({ category, tools }) => (
            <li key={category}>
              <Link to={`${PATHS.tools}#${categoryAnchor(category)}`}>
                <strong>{category}</strong>
                <span>{tools.length} tools</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="features" aria-labelledby="more">
        <h2 id="more">More than tools</h2>
        <div className="feature-grid">
          <div>
            <h3>Sell from a public page</h3>
            <p>Providers connect a service with products; visitors order, pay and get a receipt.</p>
          </div>
          <div>
            <h3>Terminals</h3>
            <p>Register your browsers as terminals and send links between them with push notifications.</p>
          </div>
          <div>
            <h3>An open API</h3>
            <p>
              Everything the site does is in the <a href={PATHS.apiDocs}>/v1 API</a>, documented with OpenAPI.
            </p>
          </div>
        </div>
      </section>
    </div>
  );
}
