import { dropTemplateDatabase, TEMPLATE_DATABASE_VARIABLE, templateDatabase } from '@tinkerdesk/testing';

/** Drops the integration run's template database. */
export default async function globalTeardown(): Promise<void> {
  const template = templateDatabase();
  if (!template) return;
  delete process.env[TEMPLATE_DATABASE_VARIABLE];
  await dropTemplateDatabase(template);
}
