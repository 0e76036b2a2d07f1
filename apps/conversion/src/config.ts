import { commonSchema, databaseSchema, env, redisSchema } from '@tinkerdesk/nest-common';

/** The environment of the conversion listener and workers; nothing else in them reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  ...redisSchema,
  HEALTH_PORT: env.port(0),
  WORKER_CONCURRENCY: env.int(2, 1, 64),
};
