export * from './platform.js';
export * from './cleanup.js';
export * from './oidc-provider.js';
export * from './epubcheck.js';
export * from './files.js';
export * from './shared-platform.js';
export * from './s3-server.js';
export * from './stripe-server.js';
