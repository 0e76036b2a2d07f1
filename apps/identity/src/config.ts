import { commonSchema, databaseSchema, env } from '@tinkerdesk/nest-common';

/** The environment of the identity service; nothing else in it reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  HEALTH_PORT: env.port(0),
  /** smtp:// or smtps:// URL; when unset, messages are written as .eml files under DATA_DIR/mail. */
  SMTP_URL: env.optionalStr(),
  MAIL_FROM: env.str('Tinkerdesk <no-reply@tinkerdesk.dev>'),
  DATA_DIR: env.str('data'),
  PUBLIC_URL: env.url('http://localhost:8080', ['http:', 'https:']),
  /** Where contact questions are emailed. */
  SUPPORT_EMAIL: env.str('support@tinkerdesk.dev'),
};
