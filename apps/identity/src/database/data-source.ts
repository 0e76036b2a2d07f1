import type { ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';

/** The schema the identity service owns; no other service reads it. */
export const SCHEMA = 'identity';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return { url, schema: SCHEMA, entities: [], migrations: [Initial1763856000000] };
}
