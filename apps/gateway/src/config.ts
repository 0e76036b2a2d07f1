import { commonSchema, env, redisSchema, type ConfigOf } from '@tinkerdesk/nest-common';

/** The gateway's environment; nothing else in the gateway reads process.env. */
export const schema = {
  ...commonSchema,
  ...redisSchema,
  PORT: env.port(8080),
  HOST: env.str('0.0.0.0'),
  BODY_LIMIT: env.int(1_048_576, 1024, 64 * 1_048_576),
  UPLOAD_LIMIT: env.int(52_428_800, 1024, 1024 * 1_048_576),
  RPC_TIMEOUT_MS: env.int(1500, 100, 120_000),
  CORS_ORIGINS: env.str('*'),
  WEB_DIST: env.str('apps/web/dist'),
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
};

export type GatewayConfig = ConfigOf<typeof schema>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
