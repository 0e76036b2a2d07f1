import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signLocalPut } from '@tinkerdesk/nest-common';
import { startLoopbackS3, TestPlatform, uniqueEmail, type LoopbackS3 } from '@tinkerdesk/testing';

/**
 * Saved files ("my files", cloud saves) through the real gateway, identity and conversion service: a
 * file is declared, PUT to its signed URL (200 means stored), confirmed, listed, downloaded through a
 * signed URL and deleted; with the site's own storage and with S3 (a loopback S3 server that checks
 * signatures). Limits: 3,000 bytes a file, 5,000 an account.
 */
const LIMITS = { FILES_MAX_BYTES: '3000', FILES_QUOTA_BYTES: '5000', RATE_LIMIT_FACTOR: '1000' };

interface Ticket {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

async function account(platform: TestPlatform, tag: string): Promise<string> {
  const created = await platform.call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'saved files password' });
  return created.body.token as string;
}

function absolute(platform: TestPlatform, url: string): string {
  return new URL(url, platform.url).toString();
}

async function declare(platform: TestPlatform, token: string, size: number, filename = 'notes.txt', mediaType = 'text/plain') {
  return platform.call('POST', '/v1/files', { filename, mediaType, size }, token);
}

async function put(
  platform: TestPlatform,
  ticket: Ticket,
  body: Buffer,
  headers: Record<string, string> = ticket.headers,
): Promise<number> {
  const res = await fetch(absolute(platform, ticket.url), { method: 'PUT', headers, body: new Uint8Array(body) });
  if (res.status >= 500) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
  return res.status;
}

/** Declares, uploads and confirms a file; answers its id. */
async function save(platform: TestPlatform, token: string, body: Buffer, filename = 'notes.txt'): Promise<string> {
  const declared = await declare(platform, token, body.length, filename);
  expect(declared.status).toBe(201);
  expect(await put(platform, declared.body.upload as Ticket, body)).toBe(200);
  const id = (declared.body.file as { id: string }).id;
  expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({
    status: 200,
    body: { file: { state: 'stored' } },
  });
  return id;
}

function describeStorage(kind: 'local' | 's3', start: () => Promise<{ platform: TestPlatform; close: () => Promise<void> }>) {
  describe(`saved files (${kind} storage)`, () => {
    let platform: TestPlatform;
    let close: () => Promise<void>;
    let token: string;

    beforeAll(async () => {
      ({ platform, close } = await start());
      token = await account(platform, `files-${kind}`);
    }, 90_000);

    afterAll(async () => {
      await close?.();
    });

    it('declares, stores through the signed URL, confirms, lists, downloads under its name, and deletes', async () => {
      const body = Buffer.from('Grocery list: apples, bread, 🧀 cheese\n');
      const declared = await declare(platform, token, body.length, 'Einkäufe März.txt', 'text/plain');
      expect(declared).toMatchObject({
        status: 201,
        body: { success: true, file: { filename: 'Einkäufe März.txt', size: body.length, state: 'pending' }, upload: { method: 'PUT' } },
      });
      const id = (declared.body.file as { id: string }).id;
      const ticket = declared.body.upload as Ticket;
      if (kind === 's3') expect(ticket.url).toContain('X-Amz-Signature=');
      else expect(ticket.url).toMatch(/^\/v1\/storage\/[0-9a-f-]{36}\/[0-9a-f-]{36}\?/);

      // Not uploaded yet: it cannot be confirmed, and pending files are not listed.
      expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({
        status: 409,
        body: { error: 'CONFLICT' },
      });
      expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({ files: [], total: 0 });

      expect(await put(platform, ticket, body)).toBe(200);
      const done = await platform.call('POST', `/v1/files/${id}/complete`, undefined, token);
      expect(done).toMatchObject({ status: 200, body: { file: { id, state: 'stored' } } });
      // Confirming again answers the same.
      expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({
        status: 200,
        body: { file: { id } },
      });

      const list = await platform.call('GET', '/v1/files', undefined, token);
      expect(list.body).toMatchObject({
        total: 1,
        usedBytes: body.length,
        quotaBytes: 5000,
        files: [{ id, filename: 'Einkäufe März.txt', mediaType: 'text/plain' }],
      });

      const ticketed = await platform.call('GET', `/v1/files/${id}/download`, undefined, token);
      expect(ticketed.status).toBe(200);
      const got = await fetch(absolute(platform, ticketed.body.url as string));
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(body);
      expect(got.headers.get('content-disposition')).toContain("filename*=UTF-8''Eink%C3%A4ufe%20M%C3%A4rz.txt");

      expect(await platform.call('DELETE', `/v1/files/${id}`, undefined, token)).toMatchObject({ status: 200, body: { success: true } });
      expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({ total: 0, usedBytes: 0 });
      expect(await platform.call('DELETE', `/v1/files/${id}`, undefined, token)).toMatchObject({ status: 404 });
      expect((await fetch(absolute(platform, ticketed.body.url as string))).status).toBe(404);
    });

    it("answers another account's file exactly like a missing one, and wants a token", async () => {
      const id = await save(platform, token, Buffer.from('mine'));
      const other = await account(platform, `files-other-${kind}`);
      for (const [method, path] of [
        ['POST', `/v1/files/${id}/complete`],
        ['GET', `/v1/files/${id}/download`],
        ['DELETE', `/v1/files/${id}`],
      ] as const) {
        expect(await platform.call(method, path, undefined, other)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
        expect(await platform.call(method, path)).toMatchObject({ status: 401 });
      }
      expect((await platform.call('GET', '/v1/files', undefined, other)).body).toMatchObject({ total: 0 });
      expect(await platform.call('POST', '/v1/files', { filename: 'a.txt', size: 3 })).toMatchObject({ status: 401 });
      await platform.call('DELETE', `/v1/files/${id}`, undefined, token);
    });

    it('refuses a PUT with another size or media type than declared, or a tampered URL; the file is not stored', async () => {
      const body = Buffer.from('exactly these bytes');
      const declared = await declare(platform, token, body.length);
      const ticket = declared.body.upload as Ticket;
      const id = (declared.body.file as { id: string }).id;
      const bigger = Buffer.concat([body, Buffer.from('!')]);
      expect(await put(platform, ticket, bigger)).toBeGreaterThanOrEqual(400);
      expect(await put(platform, ticket, body, { 'content-type': 'text/html' })).toBeGreaterThanOrEqual(400);
      const tampered = {
        ...ticket,
        url: ticket.url.replace(/(ignature=)(.)/, (_m, p: string, c: string) => `${p}${c === 'A' ? 'B' : 'A'}`),
      };
      expect(await put(platform, tampered, body)).toBe(403);
      expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({ status: 409 });
      expect(await put(platform, ticket, body)).toBe(200);
      expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({ status: 200 });
      await platform.call('DELETE', `/v1/files/${id}`, undefined, token);
    });

    it('keeps every account within its quota, also against a burst of declarations in parallel', async () => {
      const mine = await account(platform, `files-quota-${kind}`);
      expect(await declare(platform, mine, 3001)).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
      const burst = await Promise.all(Array.from({ length: 8 }, () => declare(platform, mine, 1000)));
      const accepted = burst.filter((a) => a.status === 201);
      expect(accepted).toHaveLength(5);
      expect(burst.filter((a) => a.status === 413).every((a) => a.body.error === 'QUOTA_EXCEEDED')).toBe(true);
      expect(burst.find((a) => a.status === 413)?.body.detail).toMatch(/quota of 5000 bytes/);
    });

    it('refuses bad declarations with a clear error', async () => {
      for (const [body, field] of [
        [{ filename: '../etc/passwd', size: 10 }, 'filename'],
        [{ filename: 'a.txt', size: 0 }, 'size'],
        [{ filename: 'a.txt', size: 'ten' }, 'size'],
        [{ filename: 'a.txt', size: 10, mediaType: 'not a type' }, 'mediaType'],
        [{ filename: '', size: 10 }, 'filename'],
        [{ size: 10 }, 'filename'],
      ] as const) {
        const answer = await platform.call('POST', '/v1/files', body, token);
        expect(answer).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
        expect(answer.body.detail).toContain(field);
      }
      expect(await platform.call('GET', '/v1/files/not-a-uuid/download', undefined, token)).toMatchObject({ status: 400 });
    });
  });
}

describeStorage('local', async () => {
  const platform = await TestPlatform.start(['identity', 'conversion', 'gateway'], LIMITS);
  return { platform, close: () => platform.close() };
});

describeStorage('s3', async () => {
  const s3: LoopbackS3 = await startLoopbackS3();
  const platform = await TestPlatform.start(['identity', 'conversion', 'gateway'], {
    ...LIMITS,
    FILES_S3_BUCKET: s3.bucket,
    FILES_S3_ENDPOINT: s3.endpoint,
    FILES_S3_ACCESS_KEY_ID: s3.accessKeyId,
    FILES_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    FILES_S3_FORCE_PATH_STYLE: 'true',
  });
  return {
    platform,
    close: async () => {
      await platform.close();
      await s3.close();
    },
  };
});

describe("the site's own storage URLs", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await TestPlatform.start(['identity', 'conversion', 'gateway'], LIMITS);
  }, 90_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('refuse a URL past its expiry even with a valid signature, and one signed with another key', async () => {
    const key = '6f1c3c1e-0d51-4d8a-9d61-2f7f3d9c1a01/0b6f8f5e-6a63-4d3c-8f53-0c4c2a9b7e11';
    const grant = { key, expires: Math.floor(Date.now() / 1000) - 5, size: 5, mediaType: 'text/plain' };
    const url = (secret: string, expires: number) =>
      `${platform.url}/v1/storage/${key}?${new URLSearchParams({
        expires: String(expires),
        size: '5',
        type: 'text/plain',
        signature: signLocalPut(secret, { ...grant, expires }),
      }).toString()}`;
    const expired = await fetch(url('tinkerdesk-development-signing-secret', grant.expires), {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ error: 'FORBIDDEN', detail: 'this storage URL has expired' });
    const forged = await fetch(url('a-key-that-is-not-the-servers', grant.expires + 3600), {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: 'FORBIDDEN', detail: 'the signature of this storage URL does not match' });
  });
});
