/** The commerce service's logger (pino), for providers that log. */
export const COMMERCE_LOGGER = Symbol('COMMERCE_LOGGER');
