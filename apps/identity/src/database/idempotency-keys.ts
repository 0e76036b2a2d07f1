import { IdempotencyKeys } from '@tinkerdesk/persistence';

/** Identity's Idempotency-Keys (`identity.idempotency_key`): OAuth apps are registered under them. */
export const IDENTITY_KEYS = new IdempotencyKeys('identity');
