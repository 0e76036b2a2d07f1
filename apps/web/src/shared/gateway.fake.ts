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
