import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { BluetoothIcon, CategoryIcon, CloudIcon, CodeIcon, DevicesIcon, SearchIcon, ShieldIcon, StoreIcon } from '../../../shared/icons';
import { Coming } from '../../../shared/Coming';
import { useTitle } from '../../../shared/useTitle';
import { BUILT_TOOLS, CATEGORIES, CATEGORY_BLURBS, categoryAnchor, TOOLS, toolsByCategory } from '../../../tools/registry';
import { ToolCard } from '../../../tools/ToolCard';

const FEATURED = [
  'base64-encode',
  'markdown-html',
  'yaml-json',
  'password-generator',
  'guid-generator',
  'barcode-creator',
  'pdf-image',
  'word-count',
];

/** "4 tools", or "4 tools · 1 coming" when some of the category's tools are not built yet. */
function countText(built: number, coming: number): string {
  const tools = `${built} ${built === 1 ? 'tool' : 'tools'}`;
  return coming > 0 ? `${tools} · ${coming} coming` : tools;
}

export function HomePage() {
  useTitle('');
  const featured = FEATURED.map((id) => TOOLS.find((t) => t.id === id)).filter((t) => t !== undefined);
  return (
    <div className="home">
      <section className="hero">
        <div className="hero-text">
          <p className="eyebrow">Free online tools · most need no sign-up</p>
          <h1>Small tools that get things done, right in your browser</h1>
          <p className="lead">
            Converters, generators, barcode and document tools that run on your device: what you give them stays in your browser, with no
            sign-up and no upload. The file converter is the exception: it converts on our servers, so it needs a free account.
          </p>
          <p className="hero-actions">
            <Link className="button button-primary button-large" to={PATHS.tools}>
              Browse all {BUILT_TOOLS.length} tools
            </Link>
            <Link className="button button-large" to={PATHS.register}>
              Create a free account
            </Link>
          </p>
        </div>
        <aside className="hero-card" aria-label="How the tools work">
          <ol>
            <li>
              <span className="tool-icon">
                <SearchIcon />
              </span>
              <span>
                <strong>Pick a tool</strong>
                <small>
                  Search, or browse {BUILT_TOOLS.length} tools in {CATEGORIES.length} categories
                </small>
              </span>
            </li>
            <li>
              <span className="tool-icon">
                <ShieldIcon />
              </span>
              <span>
                <strong>It runs on your device</strong>
                <small>Text and files stay in your browser</small>
              </span>
            </li>
            <li>
              <span className="tool-icon">
                <CloudIcon />
              </span>
              <span>
                <strong>Keep it for later</strong>
                <small>Recent tools and, if you opt in, your inputs stay in this browser only</small>
              </span>
            </li>
          </ol>
        </aside>
      </section>

      <section className="home-section" aria-labelledby="featured">
        <div className="section-head">
          <h2 id="featured">Popular tools</h2>
          <Link to={PATHS.tools}>See all tools</Link>
        </div>
        <ul className="tool-grid">
          {featured.map((tool) => (
            <ToolCard key={tool.id} tool={tool} />
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="categories">
        <h2 id="categories">Categories</h2>
        <ul className="category-list">
          {toolsByCategory().map(({ category, tools }) => (
            <li key={category}>
              <Link to={`${PATHS.tools}#${categoryAnchor(category)}`}>
                <span className="tool-icon">
                  <CategoryIcon category={category} />
                </span>
                <strong>{category}</strong>
                <span className="category-blurb">{CATEGORY_BLURBS[category]}</span>
                <span className="category-count">{countText(tools.filter((t) => t.page).length, tools.filter((t) => !t.page).length)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="more">
        <h2 id="more">More than tools</h2>
        <div className="feature-grid">
          <Coming what="selling" as="div" className="feature">
            <StoreIcon />
            <h3>Sell from a public page</h3>
            <p>Providers connect a service with products; visitors order, pay and get a receipt.</p>
          </Coming>
          <Coming what="terminals" as="div" className="feature">
            <DevicesIcon />
            <h3>Terminals</h3>
            <p>Register your browsers as terminals and send links between them, announced by push notifications.</p>
          </Coming>
          <Coming what="beeper" as="div" className="feature">
            <BluetoothIcon />
            <h3>Bluetooth beeper</h3>
            <p>
              Pair a Bluetooth beeper with your browser: it beeps when the barcode scanner reads a code or a share arrives.{' '}
              <Link to={PATHS.hardware}>Connect one</Link>
            </p>
          </Coming>
          <div className="feature">
            <CodeIcon />
            <h3>An API for integrators</h3>
            <p>
              The <a href={PATHS.apiDocs}>/v1 API</a> the site uses, described by <a href={PATHS.openApi}>OpenAPI</a>.
            </p>
          </div>
        </div>
      </section>
    </div>
  );
}
