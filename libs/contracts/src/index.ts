export * from './errors.js';
export * from './input.js';
export * from './subjects.js';
export * from './health.js';
export * from './conversion.js';
export * from './identity.js';
export * from './time-zones.js';
export * from './commerce.js';
