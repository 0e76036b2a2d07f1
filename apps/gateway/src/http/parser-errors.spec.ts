import { describe, expect, it } from '@jest/globals';
import { parserErrorAnswer } from './parser-errors.js';

describe('parserErrorAnswer', () => {
  it("maps Node's parser errors to statuses and codes of the catalogue", () => {
    expect(parserErrorAnswer('HPE_HEADER_OVERFLOW')).toMatchObject({ status: 431, body: { error: 'HEADERS_TOO_LARGE' } });
    expect(parserErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({ status: 408, body: { error: 'REQUEST_TIMEOUT' } });
    expect(parserErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
    expect(parserErrorAnswer('HPE_INVALID_METHOD')).toEqual({
      status: 400,
      body: { success: false, error: 'BAD_REQUEST', detail: 'the request is not valid HTTP (HPE_INVALID_METHOD)' },
    });
    expect(parserErrorAnswer(undefined).body.detail).toBe('the request is not valid HTTP');
  });
});
