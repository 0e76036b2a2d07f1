export * from './database.js';
export * from './service-instance.entity.js';
export * from './health.module.js';
export * from './service-database.module.js';
export * from './sql.js';
export * from './outbox/index.js';
export * from './timestamps.js';
export * from './retention/retention.js';
