import type { ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { ConversionJobEntity } from '../jobs/conversion-job.entity.js';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { OwnedJobs1764300000000 } from './migrations/1764300000000-owned-jobs.js';

/** The schema the conversion service owns; no other service reads it. */
export const SCHEMA = 'conversion';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return { url, schema: SCHEMA, entities: [ConversionJobEntity], migrations: [Initial1763856000000, OwnedJobs1764300000000] };
}
