/// <reference lib="webworker" />
/**
 * The service worker, served at /serviceworker.js (docs/web-app.md#terminals-in-the-browser).
 *
 * - Offline: every file of the build (the shell and every tool's chunk) is precached and kept up to
 *   date, and page navigations fall back to the cached app shell. The API (/v1) is never cached.
 * - Share target (docs/web-app.md#terminals-in-the-browser; the web manifest's share_target): a POST of the share
 *   sheet's form to a path ending /_share-target is sent on to this device's terminal
 *   (POST /v1/terminals/{id}/share with the terminal id and token kept in IndexedDB), then the page
 *   goes to the share's success page, or to /404 without stored credentials or on any failure.
 * - Web Push (docs/web-app.md#terminals-in-the-browser): a push carries a JSON PushMessage and shows a notification; a
 *   click opens the shared link, or the terminal's inbox in the account area. Exceptions while
 *   handling a push or a click are logged only. A changed push subscription is told to open windows
 *   ({type: 'pushsubscriptionchange'}), which subscribe again.
 * Every other request passes through untouched (or from the precache, as above).
 */
import {
  PUSH_BADGE,
  PUSH_DEFAULT_ACTION,
  PUSH_ICON,
  PUSH_VIBRATE,
  SHARE_DESCRIPTION_MAX,
  SHARE_TARGET_PATH,
  type PushMessage,
  type SharePayload,
} from '@tinkerdesk/contracts/web';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
// The app's own database module (idb only, no DOM): the same name, version, stores and keys.
import { database, KV_KEYS } from '../shared/storage/db';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const NOT_FOUND_PAGE = '/404';
const shareSuccessPage = (terminalId: string) => `/account/#/terminals/${encodeURIComponent(terminalId)}/share/success`;
const inboxPage = (terminalId: string) => `/account/#/terminals/${encodeURIComponent(terminalId)}/inbox`;

/** Whether the text is one absolute http(s) URL (a link rather than words). */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** A redirect the browser follows with a GET (303 See Other), for the form's POST. */
const seeOther = (path: string) => Response.redirect(new URL(path, self.location.origin).href, 303);

/**
 * The share sheet's form (url, text, title; any may be empty) as the share payload (SharePayload in libs/contracts): the
 * content is the url, else the text, else the title; the description is the title, else the text
 * (cut to the longest description the API takes, so a long text still shares).
 */
function sharePayload(form: FormData): SharePayload {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const [url, text, title] = [field('url'), field('text'), field('title')];
  const content = url || text || title;
  return {
    contentType: isHttpUrl(content) ? 'text/x-uri' : 'text/plain',
    content,
    description: (title || text).slice(0, SHARE_DESCRIPTION_MAX),
  };
}

/** The terminal id and token the app stored on its 'terminal' message, when both are there. */
async function storedTerminal(): Promise<{ terminalId: string; terminalToken: string } | undefined> {
  const db = await database();
  const [terminalId, terminalToken] = await Promise.all([
    db.get('keyvalue', KV_KEYS.terminalId),
    db.get('keyvalue', KV_KEYS.terminalToken),
  ]);
  return typeof terminalId === 'string' && terminalId && typeof terminalToken === 'string' && terminalToken
    ? { terminalId, terminalToken }
    : undefined;
}

/** POST …/_share-target: shares to this device's terminal and answers with where the page goes next. */
async function shareTarget({ request }: { request: Request }): Promise<Response> {
  try {
    const payload = sharePayload(await request.formData());
    const terminal = await storedTerminal();
    if (!terminal) return seeOther(NOT_FOUND_PAGE);
    const response = await fetch(`/v1/terminals/${encodeURIComponent(terminal.terminalId)}/share`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${terminal.terminalToken}` },
      body: JSON.stringify(payload),
    });
    // The answer is JSON (the share, or the error envelope); an unreadable body counts as a failure.
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.status === 200 && answer !== undefined) return seeOther(shareSuccessPage(terminal.terminalId));
    console.warn('share not accepted', response.status, answer);
  } catch (error) {
    console.error('share failed', error);
  }
  return seeOther(NOT_FOUND_PAGE);
}

/** Feature routes: registered before the navigation fallback. */
const routes: Array<Parameters<typeof registerRoute>> = [
  [
    ({ url, request }) => url.origin === self.location.origin && request.method === 'POST' && url.pathname.endsWith(SHARE_TARGET_PATH),
    shareTarget,
    'POST',
  ],
];
for (const route of routes) registerRoute(...route);

// Any page of the single-page app opens from the cached index.html, except the API and its docs.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/v1\//] }));

/** Notification options Chromium and Android support beyond TypeScript's DOM library. */
interface PushNotificationOptions extends NotificationOptions {
  vibrate?: number[];
  actions?: Array<{ action: string; title: string }>;
}

/** The push payload as a PushMessage; throws on anything else (not JSON, or no title). */
function pushMessage(data: PushMessageData | null): PushMessage {
  const message: unknown = data?.json();
  if (typeof message !== 'object' || message === null || typeof (message as { title?: unknown }).title !== 'string') {
    throw new Error('the push payload is not a push message');
  }
  return message as PushMessage;
}

/**
 * A push shows one notification (a new one with the same share replaces it). A payload that is not
 * a push message shows nothing: the error is logged only.
 */
async function showPush(data: PushMessageData | null): Promise<void> {
  const message = pushMessage(data);
  const options: PushNotificationOptions = {
    body: message.description ?? '',
    icon: PUSH_ICON,
    badge: PUSH_BADGE,
    vibrate: [...PUSH_VIBRATE],
    actions: [{ action: 'open', title: message.action || PUSH_DEFAULT_ACTION }],
    data: message,
  };
  const tag = message.shareId || message.content;
  if (tag) options.tag = tag;
  await self.registration.showNotification(message.title, options);
  // Open pages of the site hear of it too (the inbox refreshes; the beeper may beep).
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'share', message });
}

/**
 * A click on the notification or its button: a shared link opens in a new window; anything else
 * opens the terminal's inbox (the account area without a terminal id), in a window of the site when
 * one is open.
 */
async function openNotification(message: Partial<PushMessage> | null): Promise<void> {
  const content = message?.content ?? '';
  if (message?.contentType === 'text/x-uri' && isHttpUrl(content)) {
    await self.clients.openWindow(content);
    return;
  }
  const target = new URL(message?.terminalId ? inboxPage(message.terminalId) : '/account', self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname.startsWith('/account')) ?? windows[0];
  // navigate() works on windows this worker controls; when focusing or navigating fails, a new window opens instead.
  const reused = await open
    ?.focus()
    .then((focused) => (focused.url === target ? focused : focused.navigate(target)))
    .catch(() => null);
  if (!reused) await self.clients.openWindow(target);
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(event.data).catch((error: unknown) => console.error('push not shown', error)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const message = event.notification.data as Partial<PushMessage> | null;
  event.waitUntil(openNotification(message).catch((error: unknown) => console.error('notification click not handled', error)));
});

self.addEventListener('pushsubscriptionchange', (event) => {
  console.info('push subscription changed: asking open windows to subscribe again');
  const tell = async () => {
    for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
      client.postMessage({ type: 'pushsubscriptionchange' });
  };
  event.waitUntil(tell().catch((error: unknown) => console.error('push subscription change not told', error)));
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
