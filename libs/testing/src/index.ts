export * from './platform.js';
export * from './cleanup.js';
