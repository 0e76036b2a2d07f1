import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { ERROR_STATUS, LIST_COUNT_HEADER, OAUTH_PATH, OAUTH_SCOPES } from '@tinkerdesk/contracts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The extension Scalar (and Redoc) read for code samples of their own beside the generated ones. */
export const CODE_SAMPLES_EXTENSION = 'x-codeSamples';
export const CLIENT_SAMPLE_LABEL = 'Typed client (@tinkerdesk/api-client)';

/** The catalogue of error codes as a markdown table, in status order. */
function errorCatalogue(): string {
  const rows = (Object.entries(ERROR_STATUS) as [string, number][])
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .map(([code, status]) => `| ${status} | \`${code}\` |`);
  return ['| Status | error |', '|---|---|', ...rows].join('\n');
}

/**
 * The document's `info.description`: a quick start for integrators, shown first by /v1/docs. Every
 * statement here is a rule of the code (docs/api.md explains each at length).
 */
export function quickStart(publicUrl: string): string {
  const scopes = Object.entries(OAUTH_SCOPES)
    .map(([scope, text]) => `| \`${scope}\` | ${text} |`)
    .join('\n');
  return `The /v1 API of Tinkerdesk: everything the web app does, it does through these routes, and so can you.
This page starts with a quick start; each operation below lists its parameters, its answer, its error codes
and code samples (curl, JavaScript and the typed client). The document itself is [/v1/openapi.json](/v1/openapi.json).

## Quick start

**1. Get a token.** Sign in with an account's email address (or its guid) and password; the answer carries
\`{ profile, token, verified }\` (\`POST /v1/users\` signs up and answers the same):

\`\`\`sh
curl -s -X POST ${publicUrl}/v1/users/me%40example.com/signin \\
  -H 'content-type: application/json' \\
  -d '{"password":"correct horse battery"}'
\`\`\`

An app that acts for other people gets an access token through OAuth 2 instead (below).

**2. Make a first call** with \`Authorization: Bearer <token>\`:

\`\`\`sh
TOKEN=…   # the token of step 1
curl -s ${publicUrl}/v1/users/me -H "Authorization: Bearer $TOKEN"
\`\`\`

**With the typed client** (\`@tinkerdesk/api-client\`, generated from this document with openapi-typescript
and openapi-fetch: a path, a parameter or a body the document does not allow does not compile):

\`\`\`ts
import { ApiError, createApiClient, unwrap } from '@tinkerdesk/api-client';

const anonymous = createApiClient({ baseUrl: '${publicUrl}' });
const { token } = await unwrap(
  anonymous.POST('/v1/users/{guid}/signin', {
    params: { path: { guid: 'me@example.com' } },
    body: { password: 'correct horse battery' },
  }),
);
const api = createApiClient({ baseUrl: '${publicUrl}', token });
const { profile } = await unwrap(api.GET('/v1/users/me'));
// Or without unwrap: the answer's data, or its error envelope.
const { data, error } = await api.GET('/v1/convert/jobs', { params: { query: { offset: 0, limit: 20 } } });
\`\`\`

\`unwrap()\` answers the body of a 2xx and throws \`ApiError\` (\`status\`, \`error\`, \`detail\`) otherwise, or
\`NetworkError\` when nothing answered. Each operation's "Typed client" sample shows its call.

## Errors

Every failure is JSON \`{ "success": false, "error": "CODE", "detail": "text" }\` with a fitting HTTP status
(a 500 adds \`errorId\`, the id in the server's log). Branch on \`error\`, show \`detail\` to people. Each
operation lists the codes it can answer (\`x-error-codes\` and one response per status). Another account's
resource answers 404 like a missing one. The catalogue:

${errorCatalogue()}

## Paging

Lists take \`offset\` (from 0) and \`limit\` (1–100, default 20) and answer their items with \`total\`,
\`offset\` and \`limit\`; the lists that also send the total in the \`${LIST_COUNT_HEADER}\` header say so on
their operation.

## Rate limits and retries

A limit answers 429 \`RATE_LIMITED\` (a full conversion queue: 429 \`QUEUE_FULL\`) with \`Retry-After\` in
seconds: wait that long, then retry. Sign-in, the calls that send mail, orders and server-side fetches have
limits (their operations say which). 503 \`UNAVAILABLE\` (a service did not answer in time) is safe to retry
with backoff for reads. GET and DELETE can be repeated safely.

**Idempotency-Key.** Every call that creates something — an account (\`POST /v1/users\`), a provider service
(\`POST /v1/users/{guid}/services\`), a product (\`POST /v1/users/{id}/services/{sid}/products\`), an order
(\`POST /v1/users/{id}/services/{sid}/order\`), a payment request (\`POST /v1/requests\`), a plan
(\`POST /v1/plans\`), a card setup (\`POST /v1/paymentmethods\`), a terminal (\`POST /v1/terminals\`), a share
(\`POST /v1/terminals/{id}/share\`), a saved file (\`POST /v1/files\`), a conversion job
(\`POST /v1/convert/upload\`, \`/fetch\`), an OAuth app (\`POST /v1/oauth2/apps\`), a message on an order
(\`POST /v1/orders/{id}/reply\`), a question to support (\`POST /v1/contact\`) — and the routes that move
money (\`POST /v1/orders/{id}/pay\`, \`/complete/{x}\`, \`/refund\`) take an \`Idempotency-Key\` header (1 to 255
printable characters without spaces, e.g. a UUID per user action; another value is 400 \`VALIDATION_FAILED\`).
Keys are your account's own (a visitor's order: the visitors'), one per kind of call, kept 24 hours. The
same key with the same request answers the first object again and creates or charges nothing more — so
after a 503 or a cut connection, retry with the same key: if the first try was made, you get it. Another
request under the same key answers 409 \`CONFLICT\` ("this Idempotency-Key was used for a different
request"), and one while the first still runs, after up to 2 s of waiting for it, 409 ("still being
processed; retry in a moment"). A retried terminal or OAuth app answers a new token or secret (only their
hashes are kept; the earlier one stops working); a retried sign-up answers a new session of the same account
once its password checks out. Without a key a retry may make a second object.

## Converting a small file in one request

\`POST /v1/convert/upload?wait=30&respond=file\` answers the converted file itself (200, its media type,
\`Content-Disposition\` naming it, \`X-Conversion-Job\` naming the job) when the job completes within the
wait: upload, wait and download in one call. Anything else (the job failed, or is still running when the
wait is up) answers 202 with the job, as without \`respond\`: then wait with \`GET /v1/convert/jobs/{id}?wait=30\`
and download from \`/result\`. The job is recorded either way (listed, deletable, its result downloadable
again until it expires). \`respond=file\` needs \`wait\` of 1 s or more (400 \`VALIDATION_FAILED\` otherwise).

## Live events

\`GET /v1/events/stream\` is the signed-in account's stream of Server-Sent Events (\`text/event-stream\`):
each event names what changed and its ids (\`{type, ids}\`), never its content; read the thing again through
its route. Send the token in \`Authorization: Bearer\` (read the stream with \`fetch\`: \`EventSource\` cannot
send the header); reconnect with \`Last-Event-ID\` to get what you missed.

\`\`\`sh
curl -N ${publicUrl}/v1/events/stream -H "Authorization: Bearer $TOKEN"
\`\`\`

## OAuth 2 for apps

An app that calls /v1 for other Tinkerdesk users gets their consent instead of their password
(authorization code with PKCE S256; discovery at [${OAUTH_PATH}/.well-known/openid-configuration](${OAUTH_PATH}/.well-known/openid-configuration)):

1. **Register the app** in /account → "Apps and access" or with \`POST /v1/oauth2/apps\` (name, redirect
   URIs, scopes, developer name and contact, links): the answer carries the \`client_id\` and, for a server
   app, the \`client_secret\`, shown once. \`PATCH /v1/oauth2/apps/{id}\` edits it.
2. **Send the user's browser** to \`${OAUTH_PATH}/auth?response_type=code&client_id=…&redirect_uri=…&scope=openid profile terminals&state=…&code_challenge=…&code_challenge_method=S256\`.
   The user signs in if needed and allows or refuses on the consent page; the browser comes back to
   \`redirect_uri?code=…&state=…\` (or \`error=access_denied\`).
3. **Exchange the code** at \`POST ${OAUTH_PATH}/token\` (\`grant_type=authorization_code\`, \`code\`,
   \`redirect_uri\`, \`code_verifier\`, the client's authentication): \`{access_token, refresh_token, scope,
   expires_in}\`. Refresh with \`grant_type=refresh_token\` (each refresh token works once); revoke at
   \`POST ${OAUTH_PATH}/token/revocation\`.
4. **Call /v1** with \`Authorization: Bearer <access_token>\`: only the routes its scopes cover (each
   operation's \`oauth2\` security names its scope); elsewhere 403 \`FORBIDDEN\`.

| Scope | What it opens |
|---|---|
${scopes}
`;
}

type Schema = SchemaObject | ReferenceObject;

function resolved(document: OpenAPIObject, schema: Schema | undefined): SchemaObject | undefined {
  if (!schema) return undefined;
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolved(document, document.components?.schemas?.[name]);
  }
  return schema;
}

/** A value of the right shape to replace: '…' for text, 0, false, [] or {}. */
function placeholder(document: OpenAPIObject, schema: Schema | undefined): string {
  const s = resolved(document, schema);
  if (!s) return "'…'";
  if (s.example !== undefined && (typeof s.example === 'string' || typeof s.example === 'number' || typeof s.example === 'boolean')) {
    return JSON.stringify(s.example).replace(/^"(.*)"$/, "'$1'");
  }
  if (s.enum && s.enum.length > 0) return JSON.stringify(s.enum[0]).replace(/^"(.*)"$/, "'$1'");
  if (s.allOf?.length === 1) return placeholder(document, s.allOf[0]);
  switch (s.type) {
    case 'integer':
    case 'number':
      return '0';
    case 'boolean':
      return 'false';
    case 'array':
      return '[]';
    case 'object':
      return '{}';
    default:
      return "'…'";
  }
}

/** `{ a: …, b: … }` of an object schema's required properties (its first two when none is required). */
function objectLiteral(document: OpenAPIObject, schema: Schema | undefined): string {
  const s = resolved(document, schema);
  const properties = s?.properties ?? {};
  const names = s?.required?.length ? s.required : Object.keys(properties).slice(0, 2);
  if (names.length === 0) return '{}';
  return `{ ${names.map((n) => `${/^[A-Za-z_$][\w$]*$/.test(n) ? n : `'${n}'`}: ${placeholder(document, properties[n])}`).join(', ')} }`;
}

function parametersLiteral(document: OpenAPIObject, operation: OperationObject): string | undefined {
  const parameters = (operation.parameters ?? []).filter((p): p is ParameterObject => 'in' in p);
  const parts: string[] = [];
  for (const where of ['path', 'query'] as const) {
    const wanted = parameters.filter((p) => p.in === where && (where === 'path' || p.required));
    if (wanted.length === 0) continue;
    parts.push(
      `${where}: { ${wanted.map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : `'${p.name}'`}: ${placeholder(document, p.schema)}`).join(', ')} }`,
    );
  }
  return parts.length > 0 ? `params: { ${parts.join(', ')} }` : undefined;
}

function needsToken(operation: OperationObject): boolean {
  return (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
}

/** The typed-client call of one operation, ready to paste (placeholders '…' to fill in). */
export function clientSample(document: OpenAPIObject, publicUrl: string, path: string, method: string, operation: OperationObject): string {
  const options: string[] = [];
  const params = parametersLiteral(document, operation);
  if (params) options.push(params);
  const body = operation.requestBody && !('$ref' in operation.requestBody) ? operation.requestBody : undefined;
  const json = body?.content['application/json'];
  const multipart = body?.content['multipart/form-data'];
  if (json) options.push(`body: ${objectLiteral(document, json.schema)}`);
  else if (multipart) {
    // openapi-fetch sends a FormData body as it is (multipart, with its boundary).
    options.push('body: form as never');
  }
  const call = `api.${method.toUpperCase()}('${path}'${options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''})`;
  const lines = [
    "import { createApiClient } from '@tinkerdesk/api-client';",
    '',
    `const api = createApiClient({ baseUrl: '${publicUrl}'${needsToken(operation) ? ', token: process.env.TINKERDESK_TOKEN' : ''} });`,
  ];
  if (multipart) lines.push('const form = new FormData(); // append the fields and files of the request body below');
  lines.push(`const { data, error } = await ${call};`);
  return lines.join('\n');
}

/** Adds to every operation a code sample of the typed client (`x-codeSamples`, beside Scalar's own). */
export function addClientSamples(document: OpenAPIObject, publicUrl: string): void {
  for (const [path, item] of Object.entries(document.paths) as [string, PathItemObject][]) {
    for (const method of METHODS) {
      const operation = item[method] as (OperationObject & Record<string, unknown>) | undefined;
      if (!operation) continue;
      operation[CODE_SAMPLES_EXTENSION] = [
        { lang: 'typescript', label: CLIENT_SAMPLE_LABEL, source: clientSample(document, publicUrl, path, method, operation) },
      ];
    }
  }
}
