import { startSharedPlatform } from '@tinkerdesk/testing';

/**
 * The medium project's globalSetup: the services once for the whole run (not once per file), in one
 * isolated environment; each test file runs its own gateway in-process against them.
 */
export default async function globalSetup(): Promise<void> {
  await startSharedPlatform();
}
