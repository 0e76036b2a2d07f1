/// <reference lib="webworker" />
/**
 * The service worker, served at /serviceworker.js (spec section 7). It makes the site work offline
 * after the first visit: every file of the build (the shell and every tool's chunk) is precached and
 * kept up to date, and page navigations fall back to the cached app shell. The API (/v1) is never
 * cached. Later features add their own routes here (the share target: a POST to a path ending
 * /_share-target) through `routes` below, before the catch-all navigation route.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Feature routes (share target, ...): registered before the navigation fallback. */
const routes: Array<Parameters<typeof registerRoute>> = [];
for (const route of routes) registerRoute(...route);

// Any page of the single-page app opens from the cached index.html, except the API and its docs.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/v1\//] }));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
