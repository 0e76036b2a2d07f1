/**
 * The entry: lets the browser paint index.html's static top bar first, then boots the app (boot.tsx).
 * The app's scripts download meanwhile (index.html preloads them: apps/web/route-preloads.ts adds the
 * boot chunk's files), but evaluating them (react-dom alone is about 200 KB) used to come before the
 * first paint. A frame is waited for (requestAnimationFrame, then a task, so that frame is painted),
 * or at most 200 ms where frames are not drawn (a tab opened in the background).
 */
// The site's stylesheet stays with the entry, so index.html loads it (render-blocking) for that first paint.
import './styles.css';
import { requestProfileEarly } from './shared/session/early-profile';

// Signed in (a session cookie): the profile, which every signed-in page waits for, is asked for now.
requestProfileEarly();

function afterFirstPaint(): Promise<void> {
  return new Promise((painted) => {
    requestAnimationFrame(() => setTimeout(painted, 0));
    setTimeout(painted, 200);
  });
}

void afterFirstPaint().then(() => import('./boot'));
