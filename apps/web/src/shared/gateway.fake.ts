/**
 * For component tests: the gateway faked at the fetch boundary. `installGateway` must run before the
 * app's modules load (the typed client takes the global fetch when it is created). Never imported by the app.
 */
import { jest } from '@jest/globals';

/** A JSON answer as the gateway sends it. */
export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The profile of the signed-in user of the tests (GET /v1/users/me). */
export const profileAnswer = () =>
  json(200, { success: true, guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'UTC', active: true, verified: true });

export function installGateway(gateway: (request: Request) => Promise<Response>): void {
  globalThis.fetch = jest.fn((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch;
}

/** A request the fake gateway saw. */
export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

/** Records a request in `calls` (with its JSON body when it is a POST) and answers its path and body to route on. */
export async function record(calls: RecordedCall[], request: Request): Promise<{ pathname: string; body: unknown }> {
  const { pathname } = new URL(request.url);
  const body: unknown = request.method === 'POST' || request.method === 'PATCH' ? await request.json() : undefined;
  calls.push({ method: request.method, path: pathname, authorization: request.headers.get('authorization'), body });
  return { pathname, body };
}
