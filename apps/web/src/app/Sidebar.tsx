import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../routes/paths';
import { AuthLinks } from './AuthLinks';
import { SearchBox } from '../tools/SearchBox';

/** The mobile sidebar: search, Help, Pricing, Contact, then sign up / sign in. Closes on navigation (Layout) and Escape. */
export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      onClose();
      document.getElementById('menu-button')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  return (
    <>
      <div className={open ? 'sidebar-backdrop open' : 'sidebar-backdrop'} onClick={onClose} aria-hidden="true" />
      <aside id="sidebar" className={open ? 'sidebar open' : 'sidebar'} aria-label="Menu" aria-hidden={!open} inert={!open}>
        <SearchBox id="sidebar-search" />
        <nav aria-label="Mobile">
          <ul>
            <li>
              <Link to={PATHS.tools}>All Tools</Link>
            </li>
            <li>
              <Link to={PATHS.help}>Help</Link>
            </li>
            <li>
              <Link to={PATHS.pricing}>Pricing</Link>
            </li>
            <li>
              <Link to={PATHS.contact}>Contact</Link>
            </li>
          </ul>
          <div className="sidebar-account">
            <AuthLinks place="sidebar" />
          </div>
        </nav>
      </aside>
    </>
  );
}
