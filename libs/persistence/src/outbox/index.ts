export * from './outbox-tables.js';
export * from './outbox.js';
