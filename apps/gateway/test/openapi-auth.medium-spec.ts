import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startMediumGateway, type MediumGateway } from './medium.js';

// The OpenAPI document says who may call each route, and the gateway agrees: every route documented
// as needing a token answers 401 without one, and every route documented as open (no security, or an
// empty requirement beside the bearer one) never does. Read from /v1/openapi.json, so a new route is
// checked without anyone adding it here.

interface Operation {
  'x-error-codes'?: string[];
  responses?: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: { format?: string; enum?: unknown[] } }>;
}

let gateway: MediumGateway;
let doc: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  gateway = await startMediumGateway({ RATE_LIMIT_FACTOR: '1000' });
  doc = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as typeof doc;
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

/** The route's path with a fresh UUID (or the first enum value) for each parameter. */
function concrete(template: string, operation: Operation): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    const first = parameter?.schema?.enum?.[0];
    return first === undefined ? randomUUID() : String(first);
  });
}

describe('who may call each route', () => {
  it('matches the document: token-only routes answer 401 without a token, open routes never do', async () => {
    const wrong: string[] = [];
    let tokenOnly = 0;
    let open = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const security = operation.security ?? [];
        const needsToken = security.length > 0 && !security.some((requirement) => Object.keys(requirement).length === 0);
        const res = await fetch(`${gateway.url}${concrete(template, operation)}`, {
          method: method.toUpperCase(),
          redirect: 'manual',
          ...(method === 'get' || method === 'delete' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        });
        await res.arrayBuffer();
        if (needsToken) tokenOnly++;
        else open++;
        if (needsToken !== (res.status === 401)) {
          wrong.push(
            `${method.toUpperCase()} ${template}: documented ${needsToken ? 'token-only' : 'open'}, answered ${res.status} without a token`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(tokenOnly).toBeGreaterThan(50);
    expect(open).toBeGreaterThan(10);
  });

  it('documents the storefront, ordering and the push key as open to visitors', () => {
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security;
    expect(security('/v1/users/{id}/services/{sid}/products', 'get')).toContainEqual({});
    expect(security('/v1/users/{id}/services/{sid}/order', 'post')).toContainEqual({});
    expect(security('/v1/push/key', 'get') ?? []).toEqual([]);
  });

  it('documents what the Stripe webhook answers on a site without webhooks set up', async () => {
    const res = await fetch(`${gateway.url}/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{"type":"checkout.session.completed"}',
    });
    const body = (await res.json()) as { error: string };
    const operation = doc.paths['/v1/webhooks/stripe']?.post;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(operation?.['x-error-codes']).toContain(body.error);
    expect(Object.keys(operation?.responses ?? {})).toContain(String(res.status));
  });
});
