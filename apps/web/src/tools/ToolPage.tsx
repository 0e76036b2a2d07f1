import { Suspense, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../routes/paths';
import { CategoryIcon, ClockIcon } from '../shared/icons';
import { PageLoading } from '../shared/PageLoading';
import { useTitle } from '../shared/useTitle';
import { recordToolVisit } from '../shared/ui/history';
import { categoryAnchor, TOOLS } from './registry';
import type { Tool } from './types';

/**
 * Every tool route renders this: the tool's header (breadcrumb, name, description), then the tool's
 * own page (tools/<id>/page.tsx, found by the registry) or, until that exists, an honest notice.
 */
export function ToolPage({ tool }: { tool: Tool }) {
  useTitle(tool.name);
  const Implementation = tool.page;
  const others = TOOLS.filter((t) => t.category === tool.category && t.id !== tool.id);
  useEffect(() => {
    // Recently used tools (local history); a browser without IndexedDB simply keeps none.
    if (Implementation) recordToolVisit(tool).catch(() => undefined);
  }, [tool, Implementation]);
  return (
    <article className={Implementation ? 'page page-wide tool-page' : 'page tool-page'}>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to={PATHS.tools}>All tools</Link>
          </li>
          <li>
            <Link to={`${PATHS.tools}#${categoryAnchor(tool.category)}`}>{tool.category}</Link>
          </li>
        </ol>
      </nav>
      <header className="tool-header">
        <span className="tool-icon tool-icon-large">
          <CategoryIcon category={tool.category} size={26} />
        </span>
        <div>
          <h1>{tool.name}</h1>
          <p className="lead">{tool.description}</p>
        </div>
      </header>
      {Implementation ? (
        // The header above shows at once; the tool's own chunk loads under it.
        <Suspense fallback={<PageLoading />}>
          <Implementation tool={tool} />
        </Suspense>
      ) : (
        <>
          <div className="notice notice-soon" role="status">
            <ClockIcon />
            <div>
              <strong>Coming soon.</strong> This tool is not available yet, so there is nothing to fill in here. It is being built to run
              entirely in your browser: what you give it will stay on your device.
            </div>
          </div>
          {others.length > 0 ? (
            <section aria-labelledby="other-tools" className="other-tools">
              <h2 id="other-tools">Other tools in {tool.category}</h2>
              <ul>
                {others.map((t) => (
                  <li key={t.id}>
                    <Link to={t.path}>{t.name}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </article>
  );
}
