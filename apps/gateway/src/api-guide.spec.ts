import { describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODES } from '@tinkerdesk/contracts';
import { addClientSamples, CLIENT_SAMPLE_LABEL, CODE_SAMPLES_EXTENSION, quickStart } from './api-guide.js';

const URL = 'https://tinkerdesk.example';

function document(): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    components: {
      schemas: {
        ReplyDto: { type: 'object', required: ['note'], properties: { note: { type: 'string' }, share: { type: 'boolean' } } },
      },
    },
    paths: {
      '/v1/orders/{id}/reply': {
        post: {
          security: [{ bearer: [] }],
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
          ],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ReplyDto' } } } },
          responses: {},
        },
      },
      '/v1/health': { get: { security: [], responses: {} } },
      '/v1/convert/upload': {
        post: {
          security: [{ bearer: [] }],
          requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
          responses: {},
        },
      },
    },
  };
}

function sample(doc: OpenAPIObject, path: string, method: 'get' | 'post'): string {
  const operation = doc.paths[path]![method] as unknown as Record<string, { label: string; source: string }[]>;
  const [only, ...rest] = operation[CODE_SAMPLES_EXTENSION]!;
  expect(rest).toEqual([]);
  expect(only!.label).toBe(CLIENT_SAMPLE_LABEL);
  return only!.source;
}

describe('the typed-client samples of each operation', () => {
  it('call the route with its path parameters and a body of its required fields, with the token when it needs one', () => {
    const doc = document();
    addClientSamples(doc, URL);
    expect(sample(doc, '/v1/orders/{id}/reply', 'post')).toBe(
      [
        "import { createApiClient } from '@tinkerdesk/api-client';",
        '',
        "const api = createApiClient({ baseUrl: 'https://tinkerdesk.example', token: process.env.TINKERDESK_TOKEN });",
        "const { data, error } = await api.POST('/v1/orders/{id}/reply', {",
        "  params: { path: { id: '…' } },",
        "  body: { note: '…' },",
        '});',
      ].join('\n'),
    );
    expect(sample(doc, '/v1/health', 'get')).toContain("createApiClient({ baseUrl: 'https://tinkerdesk.example' });");
    expect(sample(doc, '/v1/health', 'get')).toContain("await api.GET('/v1/health');");
    expect(sample(doc, '/v1/convert/upload', 'post')).toContain('const form = new FormData();');
    expect(sample(doc, '/v1/convert/upload', 'post')).toContain('body: form as never');
  });
});

describe('the quick start', () => {
  const text = quickStart(URL);

  it('covers the token, a first call in curl and with the client, errors, paging, limits, live events and OAuth', () => {
    for (const part of [
      `curl -s -X POST ${URL}/v1/users/me%40example.com/signin`,
      "import { ApiError, createApiClient, unwrap } from '@tinkerdesk/api-client';",
      '{ "success": false, "error": "CODE", "detail": "text" }',
      '## Paging',
      'x-list-count',
      'Retry-After',
      'Idempotency-Key',
      'GET /v1/events/stream',
      '/v1/oauth2/auth?response_type=code',
      '| `terminals` |',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('lists every error code of the catalogue', () => {
    for (const code of ERROR_CODES) expect(text).toContain(`\`${code}\``);
  });
});
