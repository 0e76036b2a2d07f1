/**
 * @jest-environment ./apps/web/test/jsdom-environment.mjs
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from './api';
import { postFormWithProgress } from './upload';

/** A fake XMLHttpRequest whose answers are scripted per send: a status and body, or a network failure. */
type Script = { status: number; body: unknown } | 'network';
const sent: Array<{ path: string; headers: Record<string, string> }> = [];
let scripts: Script[] = [];

class FakeXhr {
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onload: (() => void) | null = null;
  private path = '';
  private headers: Record<string, string> = {};
  open(_method: string, path: string) {
    this.path = path;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  abort() {
    this.onabort?.();
  }
  send() {
    sent.push({ path: this.path, headers: this.headers });
    const script = scripts.shift() ?? 'network';
    setTimeout(() => {
      if (script === 'network') return this.onerror?.();
      this.status = script.status;
      this.responseText = JSON.stringify(script.body);
      this.onload?.();
    }, 0);
  }
}

const realXhr = globalThis.XMLHttpRequest;
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
  sent.length = 0;
  jest.useRealTimers();
});

function withFake(next: Script[]) {
  scripts = next;
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
}

const job = { success: true, job: { id: 'j1', state: 'queued' } };

describe('postFormWithProgress', () => {
  it('sends an upload to convert with an Idempotency-Key and retries a network failure and a 503 with the same key', async () => {
    withFake(['network', { status: 503, body: { success: false, error: 'UNAVAILABLE', detail: 'down' } }, { status: 202, body: job }]);
    const answer = await postFormWithProgress('/v1/convert/upload?wait=30', new FormData(), {
      token: 't',
      expect: 202,
      onProgress: () => undefined,
    });
    expect(answer).toEqual(job);
    expect(sent).toHaveLength(3);
    const key = sent[0]?.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.map((s) => s.headers['idempotency-key'])).toEqual([key, key, key]);
  });

  it('gives up after its retries with the last failure, and never retries a refusal', async () => {
    withFake(['network', 'network', 'network']);
    await expect(
      postFormWithProgress('/v1/convert/upload', new FormData(), { token: 't', expect: 202, onProgress: () => undefined }),
    ).rejects.toMatchObject({
      name: 'NetworkError',
    });
    expect(sent).toHaveLength(3);
    sent.length = 0;
    withFake([{ status: 413, body: { success: false, error: 'PAYLOAD_TOO_LARGE', detail: 'too big' } }]);
    const refusal = postFormWithProgress('/v1/convert/upload', new FormData(), { token: 't', expect: 202, onProgress: () => undefined });
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
  });

  it('sends a route without keys (a product image) once, without a key', async () => {
    withFake(['network']);
    await expect(
      postFormWithProgress('/v1/products/p1/image', new FormData(), { token: 't', expect: 200, onProgress: () => undefined }),
    ).rejects.toMatchObject({
      name: 'NetworkError',
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['idempotency-key']).toBeUndefined();
  });
});
