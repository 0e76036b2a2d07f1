/**
 * The identity service's domain events: recorded in its outbox in the same transaction as the change
 * and published after commit to NATS JetStream (at least once, in order per account), like
 * TERMINALS_EVENTS. Other services listen to them (commerce gives the orders placed with a verified
 * address to its account). Names are past tense, `<service>.<aggregate>.<what happened>`.
 */
export const IDENTITY_DOMAIN_EVENTS = {
  emailVerified: 'identity.email.verified',
} as const;

export type IdentityDomainEventName = (typeof IDENTITY_DOMAIN_EVENTS)[keyof typeof IDENTITY_DOMAIN_EVENTS];

export interface IdentityDomainEventMap {
  /** An account proved it holds this address (its verification link, or a provider that vouches for it at sign-up). */
  [IDENTITY_DOMAIN_EVENTS.emailVerified]: { userId: string; email: string };
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const IDENTITY_DOMAIN_EVENT_MAP_COVERS_NAMES: Same<IdentityDomainEventName, keyof IdentityDomainEventMap> = true;

/** One published event of one name, as listeners receive it. */
export interface IdentityDomainEventEnvelope<N extends IdentityDomainEventName> {
  id: string;
  name: N;
  aggregateType: string;
  aggregateId: string;
  payload: IdentityDomainEventMap[N];
  createdAt: string;
}

/** Any identity domain event: a union by name. */
export type IdentityDomainEvent = { [N in IdentityDomainEventName]: IdentityDomainEventEnvelope<N> }[IdentityDomainEventName];

/** The stream identity's outbox publishes to (without the deployment prefix). */
export const IDENTITY_EVENTS_STREAM = 'IDENTITY_EVENTS';
