import { outboxEntities, type ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { ProviderServices1764200000000 } from './migrations/1764200000000-provider-services.js';
import { Selling1764500000000 } from './migrations/1764500000000-selling.js';
import { RequestsTimeline1764600000000 } from './migrations/1764600000000-requests-timeline.js';
import { PlansMethods1764700000000 } from './migrations/1764700000000-plans-methods.js';
import { LatePayments1764800000000 } from './migrations/1764800000000-late-payments.js';
import { Outbox1764900000000 } from './migrations/1764900000000-outbox.js';
import { ProviderServiceEntity } from '../services/provider-service.entity.js';

/** The schema the commerce service owns; no other service reads it. */
export const SCHEMA = 'commerce';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: SCHEMA,
    entities: [ProviderServiceEntity, ...outboxEntities(SCHEMA)],
    migrations: [
      Initial1763856000000,
      ProviderServices1764200000000,
      Selling1764500000000,
      RequestsTimeline1764600000000,
      PlansMethods1764700000000,
      LatePayments1764800000000,
      Outbox1764900000000,
    ],
  };
}
