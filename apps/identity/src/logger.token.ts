/** Injection token of the identity service's pino logger (provided by AppModule). */
export const IDENTITY_LOGGER = Symbol('IDENTITY_LOGGER');
