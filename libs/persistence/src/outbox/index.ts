export * from './outbox-tables.js';
export * from './outbox.js';
export * from './service-outbox.js';
