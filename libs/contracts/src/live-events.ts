/**
 * The live event stream of a signed-in user (GET /v1/events/stream, Server-Sent Events; docs/api.md
 * "Live events"). Each event is minimal, `{type, ids}`: it says what changed, never its content (a
 * request's secret link, a share's content, an amount stay out of the stream); a page refetches what
 * it shows. Browser-safe: types, constants and pure functions only.
 */
export const LIVE_EVENTS = {
  shareReceived: 'share.received',
  terminalRegistered: 'terminal.registered',
  terminalRemoved: 'terminal.removed',
  orderPlaced: 'order.placed',
  orderPaid: 'order.paid',
  orderChanged: 'order.changed',
  orderReplied: 'order.replied',
  requestReceived: 'request.received',
  requestAccepted: 'request.accepted',
  requestDeclined: 'request.declined',
  planCharged: 'plan.charged',
  planChanged: 'plan.changed',
  cardsChanged: 'cards.changed',
  conversionProgress: 'conversion.progress',
} as const;

export type LiveEventType = (typeof LIVE_EVENTS)[keyof typeof LIVE_EVENTS];

/** What the stream's `data:` line carries: the event's type and the ids of what changed. */
export interface LiveEvent {
  type: LiveEventType;
  ids: Record<string, string | number>;
}

/** A live event with the accounts it is for: each one gets it on its own subject, nobody else. */
export interface LiveEventFor extends LiveEvent {
  audience: string[];
}

/** The JetStream stream that holds every live event for a while (prefixed per deployment), and its subjects. */
export const LIVE_STREAM = 'LIVE_EVENTS';
export const liveStreamName = (prefix: string) => (prefix ? `${prefix}_${LIVE_STREAM}` : LIVE_STREAM);
export const liveSubject = (prefix: string, userId: string) => `${prefix ? `${prefix}.` : ''}live.user.${userId}`;

/** The distinct, non-empty account ids of an audience. */
export const audienceOf = (...ids: Array<string | null | undefined>): string[] => [
  ...new Set(ids.filter((id): id is string => Boolean(id))),
];
