import { dropTemplateDatabase, isolatedEnv, migrateServices, TEMPLATE_DATABASE_VARIABLE, templateDatabaseUrl } from '@tinkerdesk/testing';

/**
 * The integration project's globalSetup: the services' migrations run once for the whole run, into a
 * template database that each test file's platform copies (libs/testing/src/template-database.ts).
 */
export default async function globalSetup(): Promise<void> {
  const template = templateDatabaseUrl();
  try {
    await migrateServices(isolatedEnv({ DATABASE_URL: template, LOG_LEVEL: 'warn' }));
  } catch (error) {
    // A globalSetup that throws gets no teardown: leave no half-migrated database behind.
    await dropTemplateDatabase(template).catch(() => undefined);
    throw error;
  }
  process.env[TEMPLATE_DATABASE_VARIABLE] = template;
}
