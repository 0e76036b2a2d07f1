import { IdempotencyKeys } from '@tinkerdesk/persistence';

/** The Idempotency-Keys of conversion (`conversion.idempotency_key`): saved files and conversion jobs are created under them. */
export const CONVERSION_KEYS = new IdempotencyKeys('conversion');
