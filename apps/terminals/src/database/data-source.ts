import { outboxEntities, type ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { PassEntity, PassImageEntity } from '../passes/pass.entity.js';
import { ShareEntity } from '../terminals/share.entity.js';
import { TerminalEntity } from '../terminals/terminal.entity.js';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { Terminals1764800000000 } from './migrations/1764800000000-terminals.js';
import { Passes1765400000000 } from './migrations/1765400000000-passes.js';
import { TerminalApp1765600000000 } from './migrations/1765600000000-terminal-app.js';
import { Outbox1765700000000 } from './migrations/1765700000000-outbox.js';
import { IdempotencyKeys1797300000000 } from './migrations/1797300000000-idempotency-keys.js';

/** The schema the terminals service owns; no other service reads it. */
export const SCHEMA = 'terminals';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: SCHEMA,
    entities: [TerminalEntity, ShareEntity, PassEntity, PassImageEntity, ...outboxEntities(SCHEMA)],
    migrations: [
      Initial1763856000000,
      Terminals1764800000000,
      Passes1765400000000,
      TerminalApp1765600000000,
      Outbox1765700000000,
      IdempotencyKeys1797300000000,
    ],
  };
}
