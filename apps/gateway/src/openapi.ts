import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  type OperationObject,
  type PathItemObject,
  type ResponseObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorCode, OAUTH_PATH, OAUTH_SCOPES, PLATFORM_VERSION } from '@tinkerdesk/contracts';
import type { Express } from 'express';
import { mountApiReference } from './api-reference.js';
import { addClientSamples, quickStart } from './api-guide.js';
import { OAUTH_SECURITY_SCHEME } from './oauth/oauth-scope.js';
import { RESPONSE_SCHEMAS } from './generated/response-schemas.js';
import { ERROR_CODES_EXTENSION, OPTIONAL_AUTH_EXTENSION, PUBLIC_EXTENSION, RATE_LIMITED_EXTENSION } from './http/api-docs.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What any route can answer, whatever it does. */
const EVERY_ROUTE: ErrorCode[] = ['INTERNAL', 'UNAVAILABLE'];
/** What a route that needs the bearer token can answer. */
/** (FORBIDDEN: an app's OAuth access token whose scopes do not cover the route.) */
const WITH_TOKEN: ErrorCode[] = ['UNAUTHORIZED', 'INVALID_TOKEN', 'IDENTIFIER_NOT_FOUND', 'FORBIDDEN'];
/** What a route that takes a body can answer before it runs. */
const WITH_BODY: ErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

function statusText(status: number): string {
  return (
    (
      {
        400: 'The request is not valid',
        401: 'No valid session token',
        403: 'Not allowed',
        404: 'Not found (another account’s resource answers the same)',
        405: 'Method not allowed',
        409: 'Conflict',
        410: 'Gone',
        413: 'Too large',
        415: 'Unsupported content encoding',
        422: 'Could not be processed',
        429: 'Too many requests (see Retry-After)',
        500: 'Unexpected failure (the body names a logged error id)',
        502: 'The server fetched from answered an error',
        503: 'A service did not answer in time',
      } as Record<number, string>
    )[status] ?? 'Error'
  );
}

/**
 * Every route's error answers, one per status, each naming exactly the codes the route can answer
 * with it: its own (`@ApiErrors`) plus those of every route of its kind.
 */
export function completeErrorResponses(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths) as PathItemObject[]) {
    for (const method of METHODS) {
      const operation = item[method] as (OperationObject & Record<string, unknown>) | undefined;
      if (!operation) continue;
      if (operation[PUBLIC_EXTENSION]) operation.security = [];
      // An empty requirement first: the route may be called with no token at all.
      if (operation[OPTIONAL_AUTH_EXTENSION])
        operation.security = [{}, ...(operation.security ?? []).filter((s) => Object.keys(s).length > 0)];
      delete operation[PUBLIC_EXTENSION];
      delete operation[OPTIONAL_AUTH_EXTENSION];
      const codes = new Set<ErrorCode>([...((operation[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined) ?? []), ...EVERY_ROUTE]);
      if (operation.security?.some((s) => 'bearer' in s || OAUTH_SECURITY_SCHEME in s)) WITH_TOKEN.forEach((c) => codes.add(c));
      // The body parser reads whatever body comes with these methods, documented or not.
      if (operation.requestBody || method === 'post' || method === 'put' || method === 'patch' || method === 'delete') {
        WITH_BODY.forEach((c) => codes.add(c));
      }
      if ((operation.parameters ?? []).some((p) => 'in' in p && (p.in === 'path' || p.in === 'query'))) codes.add('VALIDATION_FAILED');
      if (operation[RATE_LIMITED_EXTENSION]) codes.add('RATE_LIMITED');
      delete operation[RATE_LIMITED_EXTENSION];
      const sorted = [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
      operation[ERROR_CODES_EXTENSION] = sorted;
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of sorted) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
      for (const [status, list] of byStatus) {
        const response: ResponseObject = {
          description: `${statusText(status)}: ${list.join(', ')}`,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/ErrorEnvelope' },
                  { type: 'object', properties: { error: { type: 'string', enum: list } } },
                ],
              },
            },
          },
        };
        operation.responses[String(status)] = response;
      }
    }
  }
}

/** The OpenAPI 3 document of /v1: routes and request DTOs from the controllers, answers from the contracts. */
export function buildOpenApiDocument(app: INestApplication, publicUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Tinkerdesk API')
    .setDescription(quickStart(publicUrl))
    .setVersion(PLATFORM_VERSION)
    .addServer(publicUrl)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'A session token (sign-up or sign-in), or an app access token from OAuth 2 on the routes its scope covers',
    })
    .addOAuth2(
      {
        type: 'oauth2',
        description: 'Apps registered in /account (POST /v1/oauth2/apps). Authorization code flow with PKCE (S256); refresh tokens rotate.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${publicUrl}${OAUTH_PATH}/auth`,
            tokenUrl: `${publicUrl}${OAUTH_PATH}/token`,
            refreshUrl: `${publicUrl}${OAUTH_PATH}/token`,
            scopes: { ...OAUTH_SCOPES },
          },
        },
      },
      OAUTH_SECURITY_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(RESPONSE_SCHEMAS as Record<string, SchemaObject>) },
  };
  completeErrorResponses(document);
  addClientSamples(document, publicUrl);
  return document;
}

/**
 * OpenAPI 3 document generated from the controllers and the contract DTOs that also validate the
 * requests: JSON at /v1/openapi.json (and YAML at /v1/openapi.yaml), browsable at /v1/docs (Scalar,
 * ./api-reference.ts).
 */
export function mountOpenApi(app: INestApplication, publicUrl: string): void {
  const document = buildOpenApiDocument(app, publicUrl);
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    ui: false,
    raw: ['json', 'yaml'],
  });
  mountApiReference(app.getHttpAdapter().getInstance() as Express);
}
