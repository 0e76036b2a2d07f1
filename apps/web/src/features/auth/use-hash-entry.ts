import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import { errorText } from '../../shared/api';
import { session } from '../../shared/session/session';
import { parseEntryHash } from './hash-routes';

/** Codes already exchanged on this page: a code is single use, so it is never sent twice. */
const handled = new Set<string>();

/**
 * Entry behaviours by URL hash (docs/web-app.md#routes): 'impersonate/{code}' exchanges the code for a
 * session, then the hash is removed; 'tokenswap/{code}' exchanges it and goes to the path without
 * the hash, or to /home from the root.
 */
export function useHashEntry(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const entry = parseEntryHash(location.hash);
    if (!entry || handled.has(entry.code)) return;
    handled.add(entry.code);
    const withoutHash = { pathname: location.pathname, search: location.search };
    void (async () => {
      await session.whenReady();
      try {
        await session.exchangeCode(entry.code);
        if (entry.kind === 'tokenswap' && location.pathname === PATHS.root) await navigate(PATHS.home, { replace: true });
        else await navigate(withoutHash, { replace: true });
      } catch (error) {
        session.notify({ tag: 'code-exchange', type: 'error', heading: 'Sign-in link', content: errorText(error) });
        await navigate(withoutHash, { replace: true });
      }
    })();
  }, [location.hash, location.pathname, location.search, navigate]);
}
