import { IdempotencyKeys } from '@tinkerdesk/persistence';

/** The Idempotency-Keys of terminals (`terminals.idempotency_key`): terminals and shares are created under them. */
export const TERMINALS_KEYS = new IdempotencyKeys('terminals');
