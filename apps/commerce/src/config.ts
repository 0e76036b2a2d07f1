import { commonSchema, databaseSchema, env } from '@tinkerdesk/nest-common';

/** The environment of the commerce service; nothing else in it reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  HEALTH_PORT: env.port(0),
};
