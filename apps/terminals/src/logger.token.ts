/** The service's pino logger, for providers that log. */
export const TERMINALS_LOGGER = Symbol('TERMINALS_LOGGER');
