import { IdempotencyKeys } from '@tinkerdesk/persistence';

/** Identity's Idempotency-Keys (`identity.idempotency_key`): sign-ups, OAuth apps and contact questions are made under them. */
export const IDENTITY_KEYS = new IdempotencyKeys('identity');
