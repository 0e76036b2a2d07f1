import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useLogout } from '../features/auth/use-logout';
import { PATHS } from '../routes/paths';
import { ChevronIcon } from '../shared/icons';
import { useSession } from '../shared/session/session';
import { useDismiss } from '../shared/use-dismiss';

/** The drop-down is initialised this long after login (docs/web-app.md#routes). */
export const DROPDOWN_INIT_MS = 10;

/**
 * The signed-in drop-down of the top bar (docs/web-app.md#routes): shows the profile email; Home, Account,
 * Billing, Log out. A menu button: arrow keys move between the items, Escape or a click outside closes.
 */
export function ProfileMenu() {
  const { profile } = useSession();
  const location = useLocation();
  const logout = useLogout();
  const [initialised, setInitialised] = useState(false);
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = initialised && openAt === location.key;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const close = useCallback(() => setOpenAt(null), []);
  useDismiss(open, root, button, close);

  useEffect(() => {
    const timer = setTimeout(() => setInitialised(true), DROPDOWN_INIT_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: items.length - 1 };
    if (event.key in move) {
      event.preventDefault();
      items.at(move[event.key]! % items.length)?.focus();
    } else if (event.key === 'Tab') {
      close();
    }
  };

  const email = profile?.email ?? '';
  return (
    <div className="profile-menu" ref={root} data-initialised={initialised}>
      <button
        ref={button}
        type="button"
        className="nav-link profile-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="profile-menu"
        onClick={() => setOpenAt(open ? null : location.key)}
      >
        <span className="avatar" aria-hidden="true">
          {(profile?.name || email).slice(0, 1).toUpperCase()}
        </span>
        <span className="profile-email">{email}</span>
        <ChevronIcon />
      </button>
      <ul
        id="profile-menu"
        role="menu"
        aria-label="Account"
        ref={menu}
        className={open ? 'dropdown open' : 'dropdown'}
        hidden={!open}
        onKeyDown={onMenuKey}
      >
        <li role="none" className="dropdown-email">
          {email}
        </li>
        <li role="none">
          <Link role="menuitem" to={PATHS.home} onClick={close}>
            Home
          </Link>
        </li>
        <li role="none">
          <Link role="menuitem" to={PATHS.account} onClick={close}>
            Account
          </Link>
        </li>
        <li role="none">
          <Link role="menuitem" to={PATHS.billing} onClick={close}>
            Billing
          </Link>
        </li>
        <li role="none">
          <button
            role="menuitem"
            type="button"
            onClick={() => {
              close();
              void logout();
            }}
          >
            Log out
          </button>
        </li>
      </ul>
    </div>
  );
}
