import type { PushMessage } from './terminals-views.js';

/**
 * The terminals service's domain events: recorded in its outbox in the same transaction as the
 * change and published after commit to NATS JetStream (at least once, in order per aggregate).
 * Listeners react to them idempotently, keyed by the event's id. Names are past tense,
 * `<service>.<aggregate>.<what happened>`; one typed map from name to payload, like CommerceEventMap.
 */
export const TERMINALS_EVENTS = {
  shareCreated: 'terminals.share.created',
  terminalRegistered: 'terminals.terminal.registered',
  /** By its owner, or with the OAuth consent (grant) under which an app registered it. */
  terminalRemoved: 'terminals.terminal.removed',
} as const;

export type TerminalsEventName = (typeof TERMINALS_EVENTS)[keyof typeof TERMINALS_EVENTS];

export interface TerminalsEventMap {
  [TERMINALS_EVENTS.shareCreated]: {
    share: { id: string; terminalId: string; userId: string; fromTerminalId: string | null };
    /** The notification to push to the target terminal; null when it has no subscription (inbox only). */
    push: PushMessage | null;
  };
  [TERMINALS_EVENTS.terminalRegistered]: { terminal: { id: string; userId: string } };
  [TERMINALS_EVENTS.terminalRemoved]: { terminal: { id: string; userId: string }; reason: 'removed' | 'grant ended' };
}

/** Fails to compile when a name of TERMINALS_EVENTS has no payload in the map (or the map one name too many). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const TERMINALS_EVENT_MAP_COVERS_NAMES: Same<TerminalsEventName, keyof TerminalsEventMap> = true;

/** One published event of one name, as listeners receive it. */
export interface TerminalsEventEnvelope<N extends TerminalsEventName> {
  id: string;
  name: N;
  aggregateType: string;
  aggregateId: string;
  payload: TerminalsEventMap[N];
  createdAt: string;
}

/** Any terminals event: a union by name, so a switch on `name` narrows the payload. */
export type TerminalsDomainEvent = { [N in TerminalsEventName]: TerminalsEventEnvelope<N> }[TerminalsEventName];
