import { IdempotencyKeys } from '@tinkerdesk/persistence';

/** Commerce's Idempotency-Keys (`commerce.idempotency_key`): orders, payment requests and plans are created under them. */
export const COMMERCE_KEYS = new IdempotencyKeys('commerce');
