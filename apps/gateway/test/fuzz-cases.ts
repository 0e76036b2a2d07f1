import fc from 'fast-check';

// Requests made from the OpenAPI document for a bounded, seeded fuzz of every route: each operation
// gets hostile path parameters, queries and bodies (malformed JSON, deep nesting, nulls, wrong types,
// huge and NUL strings, prototype keys, bad multipart), with and without a token.

export interface OpenApiSchema {
  type?: string;
  $ref?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  enum?: unknown[];
  items?: OpenApiSchema;
  format?: string;
  example?: unknown;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: OpenApiSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  responses?: Record<string, unknown>;
  /** Every error code the route documents (one response per status lists them too). */
  'x-error-codes'?: string[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Partial<Record<string, OpenApiOperation>>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

export interface FuzzRequest {
  /** What the case is, for the failure message. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  auth: boolean;
  /** The statuses and error codes the operation documents. */
  documented: { statuses: string[]; codes: string[] };
  /** The path reaches another route of the document as well (a parameter value like `me`). */
  reachesOtherRoute: boolean;
}

function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Hostile texts: NUL, huge, control and odd Unicode, path tricks, injection-looking strings. */
const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    'x'.repeat(100_000),
    '../../etc/passwd',
    '%00',
    '%2e%2e%2f',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '\ud800',
    '\uffff',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🦄',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-4fff-bfff-ffffffffffff',
    'a@b',
    ' ',
    '\r\n\t',
    'NaN',
    '-1',
    '1e309',
    '__proto__',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Wrong-typed and hostile JSON values for a field. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], { $gt: '' }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** A value the schema would accept, where one is easy to make (so validation passes and deeper code runs). */
function plausible(schema: OpenApiSchema | undefined, doc: OpenApiDocument): unknown {
  const resolved = resolve(schema, doc);
  if (!resolved) return 'x';
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.enum && resolved.enum.length > 0) return resolved.enum[0];
  switch (resolved.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(resolved.items, doc)];
    case 'object':
      return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([k, v]) => [k, plausible(v, doc)]));
    default:
      if (resolved.format === 'uuid') return '3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11';
      if (resolved.format === 'email') return 'fuzz@example.com';
      return 'fuzz value long enough';
  }
}

function resolve(schema: OpenApiSchema | undefined, doc: OpenApiDocument): OpenApiSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.split('/').pop() ?? '';
  return doc.components?.schemas?.[name];
}

/** Percent-encoding that also takes lone surrogates (as their replacement character). */
const encode = (value: string): string =>
  encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Bodies for a JSON operation: malformed texts, deep nesting, nulls, wrong types, extras. */
function jsonBodies(schema: OpenApiSchema | undefined, doc: OpenApiDocument, nextSeed: () => number): Array<[string, string]> {
  const base = plausible(schema, doc);
  const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  const fields = Object.keys(object);
  const bodies: Array<[string, string]> = [
    ['plausible body', JSON.stringify(base)],
    ['malformed JSON', '{"a":'],
    ['malformed JSON (trailing comma)', '{"a":1,}'],
    ['not JSON at all', 'hello'],
    ['JSON null', 'null'],
    ['JSON string', '"text"'],
    ['JSON number', '42'],
    ['JSON array', '[1,2,3]'],
    ['deep nesting 1500', nested(1500)],
    ['deep array nesting 1500 (3 KB)', '['.repeat(1500) + ']'.repeat(1500)],
    ['deep nesting in a field', JSON.stringify({ ...object, [fields[0] ?? 'a']: JSON.parse(nested(60)) as unknown })],
    [
      'prototype keys',
      `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}${fields.length ? ',' : ''}${JSON.stringify(object).slice(1)}`,
    ],
    ['empty object', '{}'],
    ['huge string field', JSON.stringify({ ...object, [fields[0] ?? 'a']: 'y'.repeat(900_000) })],
  ];
  for (const field of fields) {
    bodies.push([`${field}: null`, JSON.stringify({ ...object, [field]: null })]);
    bodies.push([`${field}: NUL`, JSON.stringify({ ...object, [field]: 'a\u0000b' })]);
    for (const value of fc.sample(nastyValue, { numRuns: 4, seed: nextSeed() })) {
      bodies.push([`${field}: ${JSON.stringify(value)?.slice(0, 40)}`, JSON.stringify({ ...object, [field]: value })]);
    }
  }
  return bodies;
}

/** Multipart bodies: broken framing, NUL and odd names, missing parts, wrong field types. */
function multipartBodies(): Array<[string, string, Uint8Array<ArrayBuffer>]> {
  const b = 'fuzzboundary';
  const type = `multipart/form-data; boundary=${b}`;
  const file = (disposition: string, bytes = 'PNG') =>
    `--${b}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: image/png\r\n\r\n${bytes}\r\n`;
  const field = (name: string, value: string) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const end = `--${b}--\r\n`;
  const cases: Array<[string, string]> = [
    ['multipart truncated', `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nPN`],
    ['multipart without parts', end],
    ['multipart NUL file name (RFC 5987)', field('to', 'webp') + file("filename*=UTF-8''a%00.png") + end],
    ['multipart huge file name', field('to', 'webp') + file(`filename="${'n'.repeat(5000)}.png"`) + end],
    ['multipart field with NUL', field('to', 'we\u0000bp') + file('filename="a.png"') + end],
    ['multipart wrong types', field('to', 'webp') + field('width', 'abc') + field('height', '-5') + file('filename="a.png"') + end],
    ['multipart two files', field('to', 'webp') + file('filename="a.png"') + file('filename="b.png"') + end],
    ['multipart unknown field', field('admin', 'true') + field('to', 'webp') + file('filename="a.png"') + end],
    ['multipart no file', field('to', 'webp') + end],
    ['multipart empty file', field('to', 'webp') + file('filename="a.png"', '') + end],
  ];
  const out: Array<[string, string, Uint8Array<ArrayBuffer>]> = cases.map(([label, text]) => [label, type, new TextEncoder().encode(text)]);
  out.push(['multipart without boundary', 'multipart/form-data', new TextEncoder().encode(field('to', 'webp') + end)]);
  return out;
}

/** Values for a path parameter: plausible, hostile, and percent-encoded tricks. */
function pathValues(param: OpenApiParameter, doc: OpenApiDocument, nextSeed: () => number): string[] {
  const values = new Set<string>([
    encode(String(plausible(param.schema, doc))),
    '%00',
    'a%00b',
    '%2e%2e',
    '%ff%fe',
    '%',
    'x'.repeat(3000),
    'me',
    '00000000-0000-0000-0000-000000000000',
  ]);
  for (const value of fc.sample(nastyString, { numRuns: 6, seed: nextSeed() })) {
    values.add(encode(value.slice(0, 2000)).replace(/\./g, '%2E') || 'empty');
  }
  return [...values];
}

function fill(template: string, params: OpenApiParameter[], doc: OpenApiDocument, overrides: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const param = params.find((p) => p.name === name && p.in === 'path');
    return overrides[name] ?? encode(String(plausible(param?.schema, doc)));
  });
}

/**
 * Every request of the fuzz, in a fixed order for a given seed. `substitutes` gives real values for
 * some path parameters (the caller's own guid), so deeper paths are reached too.
 */
export function fuzzRequests(doc: OpenApiDocument, seed: number, substitutes: Record<string, string> = {}): FuzzRequest[] {
  // Each sample draws its own seed from this sequence, so the whole list follows from `seed`.
  let state = seed >>> 0;
  const nextSeed = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  const requests: FuzzRequest[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const params = operation.parameters ?? [];
      const verb = method.toUpperCase();
      const path = fill(template, params, doc, substitutes);
      const documented = { statuses: Object.keys(operation.responses ?? {}), codes: operation['x-error-codes'] ?? [] };
      const others = Object.keys(doc.paths)
        .filter((t) => t !== template)
        .map(templatePattern);
      const add = (label: string, p: string, headers: Record<string, string> = {}, body?: string | Uint8Array<ArrayBuffer>): void => {
        const bare = p.split('?')[0] ?? p;
        const reachesOtherRoute = others.some((pattern) => pattern.test(bare));
        for (const auth of [false, true])
          requests.push({
            label: `${verb} ${template}: ${label}`,
            method: verb,
            path: p,
            headers,
            body,
            auth,
            documented,
            reachesOtherRoute,
          });
      };

      for (const param of params.filter((p) => p.in === 'path')) {
        for (const value of pathValues(param, doc, nextSeed)) {
          add(`path ${param.name}=${value.slice(0, 30)}`, fill(template, params, doc, { ...substitutes, [param.name]: value }));
        }
      }
      const queryNames = [...params.filter((p) => p.in === 'query').map((p) => p.name), 'unexpected'];
      for (const name of queryNames) {
        for (const value of [...fc.sample(nastyString, { numRuns: 3, seed: nextSeed() }), '%00', 'a&b=c']) {
          add(`query ${name}`, `${path}?${name}=${encode(value.slice(0, 3000))}`);
        }
        add(`query ${name} repeated`, `${path}?${name}=a&${name}=b&${name}[x]=c`);
      }

      const content = operation.requestBody?.content ?? {};
      if (content['application/json'] || verb === 'POST' || verb === 'PUT') {
        for (const [label, text] of jsonBodies(content['application/json']?.schema, doc, nextSeed)) {
          add(label, path, { 'content-type': 'application/json' }, text);
        }
        add('wrong content type', path, { 'content-type': 'text/plain' }, 'hello');
        add('form-encoded body', path, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&a=2&b[c]=3&%00=x');
        add('unknown charset', path, { 'content-type': 'application/json; charset=utf-42' }, '{}');
      }
      if (content['multipart/form-data']) {
        for (const [label, type, bytes] of multipartBodies()) add(label, path, { 'content-type': type }, bytes);
      }
    }
  }
  return requests;
}

/** A request to one of the OAuth protocol endpoints (oidc-provider's and userinfo), which answer in the RFCs' form, not the envelope. */
export interface OAuthFuzzRequest {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** /auth answers an HTML error page or redirects to the app; the others answer JSON errors ({error}). */
  answers: 'page' | 'json';
}

/** An app registered for the fuzz: its credentials make the token endpoints reach the lookups of codes and tokens. */
export interface FuzzApp {
  id: string;
  secret: string;
  redirectUri: string;
}

/** Values that once made the OAuth endpoints answer 500: over 200 characters, NUL, and the usual hostile texts. */
const oauthValue = fc.oneof(
  fc.constantFrom(
    'x'.repeat(201),
    'x'.repeat(5000),
    '\u0000',
    'a\u0000b',
    '%00',
    '🦄'.repeat(120),
    `${'a'.repeat(64)}\u0000`,
    'a'.repeat(64),
  ),
  nastyString,
);

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/**
 * Requests for the OAuth protocol endpoints under /v1/oauth2 (authorization, token, introspection,
 * revocation, pushed requests, userinfo) with hostile client_id, code, refresh_token, token and access token values,
 * in a fixed order for a given seed.
 */
export function oauthFuzzRequests(app: FuzzApp, seed: number): OAuthFuzzRequest[] {
  const values = [...new Set(fc.sample(oauthValue, { numRuns: 40, seed }).map((v) => v.slice(0, 6000)))];
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const asApp = { ...form, authorization: basic(app.id, app.secret) };
  const requests: OAuthFuzzRequest[] = [];
  const label = (value: string) => JSON.stringify(value.slice(0, 24));
  for (const value of values) {
    const auth = new URLSearchParams({
      client_id: app.id,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    });
    for (const name of ['client_id', 'redirect_uri', 'scope', 'code_challenge', 'state']) {
      const params = new URLSearchParams(auth);
      params.set(name, value);
      requests.push({
        label: `GET /auth ${name}=${label(value)}`,
        method: 'GET',
        path: `/v1/oauth2/auth?${params}`,
        headers: {},
        answers: 'page',
      });
    }
    const post = (what: string, path: string, headers: Record<string, string>, fields: Record<string, string>) =>
      requests.push({
        label: `POST ${path.replace('/v1/oauth2', '')} ${what}=${label(value)}`,
        method: 'POST',
        path,
        headers,
        body: new URLSearchParams(fields).toString(),
        answers: 'json',
      });
    post('code', '/v1/oauth2/token', asApp, {
      grant_type: 'authorization_code',
      code: value,
      redirect_uri: app.redirectUri,
      code_verifier: 'v'.repeat(43),
    });
    post('refresh_token', '/v1/oauth2/token', asApp, { grant_type: 'refresh_token', refresh_token: value });
    post('grant_type', '/v1/oauth2/token', asApp, { grant_type: value });
    post(
      'client_id (basic)',
      '/v1/oauth2/token',
      { ...form, authorization: basic(value, app.secret) },
      { grant_type: 'refresh_token', refresh_token: 'r' },
    );
    post('client_id (body)', '/v1/oauth2/token', form, {
      grant_type: 'refresh_token',
      refresh_token: 'r',
      client_id: value,
      client_secret: app.secret,
    });
    post('token', '/v1/oauth2/token/introspection', asApp, { token: value });
    post('token_type_hint', '/v1/oauth2/token/introspection', asApp, { token: 'a'.repeat(64), token_type_hint: value });
    post('client_id (basic)', '/v1/oauth2/token/introspection', { ...form, authorization: basic(value, app.secret) }, { token: value });
    post('token', '/v1/oauth2/token/revocation', asApp, { token: value });
    post('state (pushed request)', '/v1/oauth2/request', asApp, {
      response_type: 'code',
      redirect_uri: app.redirectUri,
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: value,
    });
    for (const method of ['GET', 'POST'])
      requests.push({
        label: `${method} /me access token=${label(value)}`,
        method,
        path: '/v1/oauth2/me',
        headers: { authorization: `Bearer ${encode(value)}` },
        answers: 'json',
      });
  }
  return requests;
}
