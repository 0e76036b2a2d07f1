export * from './config.js';
export * from './context.js';
export * from './logger.js';
export * from './rpc-client.js';
export * from './rpc-server.js';
export * from './prefixed-nats-server.js';
export * from './service-bootstrap.js';
export * from './file-store.js';
