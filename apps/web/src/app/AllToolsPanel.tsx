import { useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../routes/paths';
import { useDismiss } from '../shared/use-dismiss';
import { ArrowRightIcon, CategoryIcon, ChevronIcon } from '../shared/icons';
import { toolsByCategory } from '../tools/registry';

/**
 * The 'All Tools' drop-down: slides over 500 ms (CSS), closes on a click outside it, on Escape and
 * on any navigation (it is open only for the location it was opened at, so following a tool closes it).
 */
export function AllToolsPanel() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpenAt(null), []);
  useDismiss(open, root, button, close);

  return (
    <div className="all-tools" ref={root}>
      <button
        ref={button}
        type="button"
        className="nav-link all-tools-button"
        aria-expanded={open}
        aria-controls="all-tools-panel"
        onClick={() => setOpenAt(open ? null : location.key)}
      >
        All Tools <ChevronIcon />
      </button>
      <div id="all-tools-panel" className={open ? 'all-tools-panel open' : 'all-tools-panel'} aria-hidden={!open} inert={!open}>
        <nav aria-label="All tools">
          <div className="all-tools-grid">
            {toolsByCategory().map(({ category, tools }) => (
              <section key={category}>
                <h2>
                  <CategoryIcon category={category} size={16} />
                  {category}
                </h2>
                <ul>
                  {tools.map((tool) => (
                    <li key={tool.id}>
                      <Link to={tool.path} onClick={close}>
                        {tool.name}
                        {tool.page ? null : <span className="badge badge-coming">Coming soon</span>}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
          <p className="all-tools-footer">
            <Link to={PATHS.tools} onClick={close}>
              Browse every tool with descriptions <ArrowRightIcon />
            </Link>
          </p>
        </nav>
      </div>
    </div>
  );
}
