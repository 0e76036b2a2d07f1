import { stopSharedPlatform } from '@tinkerdesk/testing';

/** Stops the medium project's services and removes the run's database, buckets and keys. */
export default async function globalTeardown(): Promise<void> {
  await stopSharedPlatform();
}
