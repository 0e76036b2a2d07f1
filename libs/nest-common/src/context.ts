import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request context (request id) carried through async calls, read by the logger. */
export interface RequestContext {
  requestId: string;
  /** When the service's transport took the message (epoch ms, `epochMs`), for the phase logs; unset over HTTP. */
  receivedAt?: number;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** When the current NATS message reached this service (see RequestContext.receivedAt). */
export function currentReceivedAt(): number | undefined {
  return requestContext.getStore()?.receivedAt;
}
