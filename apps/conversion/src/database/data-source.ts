import type { ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { SavedFileAbandonedEntity, SavedFileEntity, SavedFilePurgeEntity } from '../files/saved-file.entity.js';
import { ConversionJobEntity } from '../jobs/conversion-job.entity.js';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { OwnedJobs1764300000000 } from './migrations/1764300000000-owned-jobs.js';
import { SavedFiles1764400000000 } from './migrations/1764400000000-saved-files.js';
import { SavedFileUploads1764800000000 } from './migrations/1764800000000-saved-file-uploads.js';
import { IdempotencyKeys1797300000000 } from './migrations/1797300000000-idempotency-keys.js';

/** The schema the conversion service owns; no other service reads it. */
export const SCHEMA = 'conversion';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: SCHEMA,
    entities: [ConversionJobEntity, SavedFileEntity, SavedFilePurgeEntity, SavedFileAbandonedEntity],
    migrations: [
      Initial1763856000000,
      OwnedJobs1764300000000,
      SavedFiles1764400000000,
      SavedFileUploads1764800000000,
      IdempotencyKeys1797300000000,
    ],
  };
}
