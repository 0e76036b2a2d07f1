import { useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../routes/paths';
import { useDismiss } from '../shared/use-dismiss';
import { ArrowRightIcon, CategoryIcon, ChevronIcon } from '../shared/icons';
import { toolsByCategory } from '../tools/registry';

/**
 * The 'All Tools' drop-down: slides over 500 ms (CSS), closes on a click outside it, on Escape and
 * on any navigation (it is open only for the location it was opened at, so following a tool closes it).
 * Its list (about 90 elements: every tool by category, with icons) is rendered from the first time the
 * pointer or the focus reaches the button, not with every page's first render, where it was part of the
 * one commit that builds the page; the panel itself is there from the start, so it still slides.
 */
export function AllToolsPanel() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const [wanted, setWanted] = useState(false);
  const want = useCallback(() => setWanted(true), []);
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
        onPointerEnter={want}
        onFocus={want}
        onClick={() => {
          want();
          setOpenAt(open ? null : location.key);
        }}
      >
        All Tools <ChevronIcon />
      </button>
      <div id="all-tools-panel" className={open ? 'all-tools-panel open' : 'all-tools-panel'} aria-hidden={!open} inert={!open}>
        {wanted ? <AllToolsList close={close} /> : null}
      </div>
    </div>
  );
}

function AllToolsList({ close }: { close: () => void }) {
  return (
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
  );
}
