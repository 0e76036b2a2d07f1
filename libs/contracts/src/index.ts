// The server entry: everything in web.ts (browser-safe types and constants) plus the DTO classes that
// validate requests (Nest's Swagger decorators and class-validator), the subjects and the RPC map.
export * from './web.js';
export * from './input.js';
export * from './idempotency.js';
export * from './subjects.js';
export * from './rpc.js';
export * from './conversion.js';
export * from './identity.js';
export * from './time-zones.js';
export * from './commerce.js';
export * from './seller-overview.js';
export * from './commerce-events.js';
export * from './terminals.js';
export * from './terminals-events.js';
export * from './identity-domain-events.js';
export * from './live-audience.js';
export * from './passes.js';
export * from './oauth.js';
export * from './fetch.js';
export * from './files.js';
