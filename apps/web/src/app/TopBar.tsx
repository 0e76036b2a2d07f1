import { Link } from 'react-router-dom';
import { PATHS } from '../routes/paths';
import { MenuIcon } from '../shared/icons';
import { AllToolsPanel } from './AllToolsPanel';
import { AuthLinks } from './AuthLinks';
import { SearchBox } from '../tools/SearchBox';

export function TopBar({ sidebarOpen, onToggleSidebar }: { sidebarOpen: boolean; onToggleSidebar: () => void }) {
  return (
    <header className="top-bar">
      <div className="top-bar-inner">
        <Link to={PATHS.root} className="logo" aria-label="Tinkerdesk home">
          <img src="/logo.svg" alt="" width="32" height="32" />
          <span>Tinkerdesk</span>
        </Link>
        <div className="top-bar-search">
          <SearchBox id="top-search" />
        </div>
        <nav aria-label="Main" className="top-nav">
          <AllToolsPanel />
          <Link className="nav-link" to={PATHS.help}>
            Help
          </Link>
          <Link className="nav-link" to={PATHS.pricing}>
            Pricing
          </Link>
          <AuthLinks place="top-bar" />
        </nav>
        <button
          id="menu-button"
          type="button"
          className="icon-button menu-button"
          aria-label="Menu"
          aria-expanded={sidebarOpen}
          aria-controls="sidebar"
          onClick={onToggleSidebar}
        >
          <MenuIcon open={sidebarOpen} />
        </button>
      </div>
    </header>
  );
}
