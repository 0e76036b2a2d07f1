import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';

/**
 * The service's data source as the outbox's relay and listeners take it (they read and mark the
 * outbox tables; the code that wires them stays out of TypeORM, like every non-repository file).
 */
export const OUTBOX_DATA_SOURCE = Symbol('OUTBOX_DATA_SOURCE');

export const outboxDataSource: Provider = { provide: OUTBOX_DATA_SOURCE, useExisting: getDataSourceToken() };
