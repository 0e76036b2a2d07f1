import type { TerminalsEventMap, TerminalsEventName } from '@tinkerdesk/contracts';
import { recordOutboxEvents, type TransactionManager } from '@tinkerdesk/persistence';

/** The JetStream stream of terminals (prefixed per deployment): every terminals event, published by the relay. */
export const TERMINALS_STREAM = 'TERMINALS_EVENTS';

/** Something that happened, typed by its name (TerminalsEventMap), about one aggregate. */
export interface TerminalsEventRecord<N extends TerminalsEventName = TerminalsEventName> {
  name: N;
  aggregateType: 'share' | 'terminal';
  aggregateId: string;
  payload: TerminalsEventMap[N];
}

export function terminalsEvent<N extends TerminalsEventName>(
  name: N,
  aggregate: { type: TerminalsEventRecord['aggregateType']; id: string },
  payload: TerminalsEventMap[N],
): TerminalsEventRecord<N> {
  return { name, aggregateType: aggregate.type, aggregateId: aggregate.id, payload };
}

/** Writes events to the terminals outbox through the transaction of the change (repositories call it). */
export async function recordTerminalsEvents(manager: TransactionManager, events: TerminalsEventRecord[]): Promise<void> {
  if (events.length > 0) await recordOutboxEvents(manager, 'terminals', events);
}
