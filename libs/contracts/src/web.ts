/**
 * The browser-safe entry of the contracts (`@tinkerdesk/contracts/web`): types and constants only,
 * with no Nest, class-validator or Node import, so the web app imports the server's own definitions
 * instead of redeclaring them. A lint rule keeps it that way (apps/web may import only this entry and
 * `@tinkerdesk/contracts/time-zones`).
 */
export * from './errors.js';
export * from './health.js';
export * from './identity-views.js';
export * from './commerce-views.js';
export * from './seller-overview-views.js';
export * from './terminals-views.js';
export * from './passes-views.js';
export * from './oauth-views.js';
export * from './links.js';
export * from './shop-slug.js';
export * from './dates.js';
export * from './conversion-views.js';
export * from './account-views.js';
export * from './conversion-formats.js';
export * from './conversion-engines.js';
export * from './files-views.js';
export * from './responses.js';
export * from './live-events.js';
