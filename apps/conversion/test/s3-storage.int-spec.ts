import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLoopbackS3, type LoopbackS3 } from '@tinkerdesk/testing';
import { randomUUID } from 'node:crypto';
import { S3SavedFileStorage, savedFileUploadKey, type UploadTarget } from '@tinkerdesk/nest-common';

/**
 * The S3 path of saved files against a real S3-protocol server on loopback (s3rver): the presigned PUT
 * stores exactly what was declared under the file's upload key, and nothing else gets through it; a
 * conditional copy takes the upload only while it is the object that was checked; the presigned GET
 * downloads it under its name; stat and remove see the same bucket.
 */
let s3: LoopbackS3;
let storage: S3SavedFileStorage;

beforeAll(async () => {
  s3 = await startLoopbackS3();
  storage = S3SavedFileStorage.fromConfig({
    FILES_S3_BUCKET: s3.bucket,
    FILES_S3_REGION: 'us-east-1',
    FILES_S3_ENDPOINT: s3.endpoint,
    FILES_S3_ACCESS_KEY_ID: s3.accessKeyId,
    FILES_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    FILES_S3_FORCE_PATH_STYLE: 'true',
    FILES_SIGNING_SECRET: 'unused-for-s3-storage',
    FILES_MAX_BYTES: 1024,
    FILES_QUOTA_BYTES: 4096,
    FILES_STORE_MAX_BYTES: 1024 ** 2,
    FILES_URL_TTL_SECONDS: 60,
    FILES_UPLOAD_TTL_SECONDS: 60,
    FILES_PENDING_SECONDS: 120,
    FILES_SWEEP_SECONDS: 60,
    NODE_ENV: 'test',
    NATS_PREFIX: '',
  });
}, 30_000);

afterAll(async () => {
  await s3?.close();
});

const body = Buffer.from('%PDF-1.4 saved through a presigned URL\n');

function target(): UploadTarget & { key: string } {
  const ownerId = randomUUID();
  const fileId = randomUUID();
  return { ownerId, fileId, nonce: 'unused-by-s3-presigned-urls', key: savedFileUploadKey(ownerId, fileId) };
}

describe('S3SavedFileStorage against a loopback S3 server', () => {
  it('a presigned PUT stores the file; stat sees its size; a presigned GET downloads it under its name; remove deletes it', async () => {
    const { key, ...to } = target();
    const ticket = await storage.uploadTicket(to, { mediaType: 'application/pdf', size: body.length }, 60);
    expect(ticket).toMatchObject({ method: 'PUT', headers: { 'content-type': 'application/pdf' } });
    expect(ticket.url).toContain('X-Amz-Signature=');
    const put = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body });
    expect(put.status).toBe(200);
    expect(await storage.stat(key)).toMatchObject({ size: body.length, etag: expect.any(String) });

    const download = await storage.downloadTicket(key, { filename: 'Résumé 2026.pdf', mediaType: 'application/pdf' }, 60);
    const got = await fetch(download.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(body);
    expect(got.headers.get('content-disposition')).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf");

    await storage.remove(key);
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('refuses a PUT whose signature, size or media type is not the signed one', async () => {
    const { key, ...to } = target();
    const ticket = await storage.uploadTicket(to, { mediaType: 'application/pdf', size: body.length }, 60);
    const tampered = ticket.url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered, { method: 'PUT', headers: ticket.headers, body })).status).toBe(403);
    const longer = Buffer.concat([body, Buffer.from('more')]);
    expect((await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: longer })).status).toBe(403);
    expect((await fetch(ticket.url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body })).status).toBe(403);
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('a presigned URL that has expired no longer works', async () => {
    const past = new Date(Date.now() - 120_000);
    const ticket = await storage.uploadTicket(target(), { mediaType: 'text/plain', size: 5 }, 60, past);
    expect((await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: 'hello' })).status).toBe(403);
  });

  it('copies an upload only while it is the object that was checked: a copy of a replaced upload is refused', async () => {
    const { key, ...to } = target();
    const ticket = await storage.uploadTicket(to, { mediaType: 'application/pdf', size: body.length }, 60);
    expect((await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body })).status).toBe(200);
    const checked = await storage.stat(key);
    const kept = `${to.ownerId}/${to.fileId}/${randomUUID()}`;
    expect(await storage.copyIfUnchanged(key, kept, checked?.etag ?? '')).toBe(true);

    // The presigned URL still works (it cannot be revoked) and replaces the upload, never the copy.
    const other = Buffer.alloc(body.length, 'X');
    expect((await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: other })).status).toBe(200);
    const download = await storage.downloadTicket(kept, { filename: 'kept.pdf', mediaType: 'application/pdf' }, 60);
    expect(Buffer.from(await (await fetch(download.url)).arrayBuffer())).toEqual(body);
    const again = `${to.ownerId}/${to.fileId}/${randomUUID()}`;
    expect(await storage.copyIfUnchanged(key, again, checked?.etag ?? '')).toBe(false);
    expect(await storage.stat(again)).toBeUndefined();
    await storage.remove(key);
    expect(await storage.copyIfUnchanged(key, again, checked?.etag ?? '')).toBe(false);
    await storage.remove(kept);
  });
});
