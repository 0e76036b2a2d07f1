import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request context (request id) carried through async calls, read by the logger. */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
