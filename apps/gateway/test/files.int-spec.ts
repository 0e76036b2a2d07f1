import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { connect } from '@nats-io/transport-node';
import { SUBJECTS } from '@tinkerdesk/contracts';
import { openSavedFilesStore, RpcClient, signLocalPut } from '@tinkerdesk/nest-common';
import { startLoopbackS3, TestPlatform, uniqueEmail, type LoopbackS3 } from '@tinkerdesk/testing';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import pg from 'pg';

/**
 * Saved files ("my files", cloud saves) through the real gateway, identity and conversion service: a
 * file is declared, PUT to its signed URL (200 means stored), confirmed, listed, downloaded through a
 * signed URL and deleted; with the site's own storage and with S3 (a loopback S3 server that checks
 * signatures). Limits: 3,000 bytes a file, 5,000 an account; the sweep runs every second.
 */
const LIMITS = { FILES_MAX_BYTES: '3000', FILES_QUOTA_BYTES: '5000', RATE_LIMIT_FACTOR: '1000', FILES_SWEEP_SECONDS: '1' };

/** A running platform and a look into its storage: the keys stored under a prefix. */
interface Started {
  platform: TestPlatform;
  /** The keys the storage holds that start with `prefix`. */
  keys: (prefix: string) => Promise<string[]>;
  close: () => Promise<void>;
}

async function localKeys(platform: TestPlatform): Promise<Started> {
  const nc = await connect({ servers: platform.env.NATS_URL ?? '' });
  const store = await openSavedFilesStore(nc, platform.env.NATS_PREFIX ?? '', Number(platform.env.FILES_STORE_MAX_BYTES));
  return {
    platform,
    keys: async (prefix) => (await store.list()).filter((o) => !o.deleted && o.name.startsWith(prefix)).map((o) => o.name),
    close: async () => {
      await nc.close();
      await platform.close();
    },
  };
}

/**
 * Polls `read` until `done` holds (the sweep runs every second; a withdrawal may still be on its way);
 * answers the last value, also when it gives up after `patienceMs`, for the caller's assertion to show.
 */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, patienceMs = 20_000): Promise<T> {
  const until = Date.now() + patienceMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

/** Declares, uploads and confirms a file; answers its id and its upload URL. */
async function saveWithTicket(platform: TestPlatform, token: string, body: Buffer, filename = 'notes.txt') {
  const declared = await declare(platform, token, body.length, filename);
  expect(declared.status).toBe(201);
  const ticket = declared.body.upload as Ticket;
  expect(await put(platform, ticket, body)).toBe(200);
  const id = (declared.body.file as { id: string }).id;
  expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({
    status: 200,
    body: { file: { state: 'stored' } },
  });
  return { id, ticket };
}

async function save(platform: TestPlatform, token: string, body: Buffer, filename = 'notes.txt'): Promise<string> {
  return (await saveWithTicket(platform, token, body, filename)).id;
}

/** What the file's download URL serves. */
async function downloaded(platform: TestPlatform, token: string, id: string): Promise<Buffer> {
  const ticketed = await platform.call('GET', `/v1/files/${id}/download`, undefined, token);
  expect(ticketed.status).toBe(200);
  const got = await fetch(absolute(platform, ticketed.body.url as string));
  expect(got.status).toBe(200);
  return Buffer.from(await got.arrayBuffer());
}

/** The answer to a PUT through an upload URL: its status and JSON body (S3 answers XML: {}). */
async function putAnswer(platform: TestPlatform, ticket: Ticket, body: Buffer) {
  const res = await fetch(absolute(platform, ticket.url), { method: 'PUT', headers: ticket.headers, body: new Uint8Array(body) });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json');
  return { status: res.status, body: (json && text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** `{owner}/{file}`: the storage prefix of every key of the file an upload URL is for. */
function filePrefix(ticket: Ticket): string {
  const match = /([0-9a-f-]{36})\/([0-9a-f-]{36})/.exec(ticket.url);
  if (!match) throw new Error(`no file key in ${ticket.url}`);
  return `${match[1]}/${match[2]}`;
}

const sameLength = (body: Buffer, fill: string) => Buffer.alloc(body.length, fill);

function describeStorage(kind: 'local' | 's3', start: () => Promise<Started>) {
  describe(`saved files (${kind} storage)`, () => {
    let platform: TestPlatform;
    let close: () => Promise<void>;
    let keys: Started['keys'];
    let token: string;

    beforeAll(async () => {
      ({ platform, close, keys } = await start());
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
      // Pending files are not listed, but count in the quota, and the list says how much of it is pending.
      expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({
        files: [],
        total: 0,
        usedBytes: body.length,
        pendingBytes: body.length,
      });

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
        pendingBytes: 0,
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

    it('serves what complete accepted, whatever is PUT to the upload URL afterwards', async () => {
      const body = Buffer.from('the accepted bytes');
      const { id, ticket } = await saveWithTicket(platform, token, body);
      for (let i = 0; i < 3; i++) {
        const later = await putAnswer(platform, ticket, sameLength(body, 'X'));
        // The site's own storage refuses it; an S3 presigned URL cannot be revoked, but what it writes is never served.
        if (kind === 'local') expect(later).toMatchObject({ status: 409, body: { success: false, error: 'CONFLICT' } });
        else expect(later.status).toBeLessThan(500);
        expect(await downloaded(platform, token, id)).toEqual(body);
        expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({ status: 200 });
        expect(await downloaded(platform, token, id)).toEqual(body);
      }
      await platform.call('DELETE', `/v1/files/${id}`, undefined, token);
    });

    it('removes the bytes on delete, and keeps nothing a PUT to the dead upload URL sends', async () => {
      const body = Buffer.from('soon deleted');
      const { id, ticket } = await saveWithTicket(platform, token, body);
      const prefix = filePrefix(ticket);
      expect(await keys(prefix)).toHaveLength(1);
      expect(await platform.call('DELETE', `/v1/files/${id}`, undefined, token)).toMatchObject({ status: 200 });
      expect(await keys(prefix)).toEqual([]);
      const after = await putAnswer(platform, ticket, body);
      if (kind === 'local') {
        expect(after).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
        expect(await keys(prefix)).toEqual([]);
      } else {
        // S3 took it (the URL lives a few minutes): the upload key is removed once the URL is dead.
        expect(after.status).toBe(200);
        const purges = await platform.query<{ key: string }>(`SELECT key FROM conversion.saved_file_purge WHERE key LIKE $1`, [
          `${prefix}/%`,
        ]);
        expect(purges.map((p) => p.key)).toEqual([`${prefix}/upload`]);
        await platform.query(`UPDATE conversion.saved_file_purge SET not_before = now() - interval '1 second' WHERE key LIKE $1`, [
          `${prefix}/%`,
        ]);
        expect(
          await eventually(
            () => keys(prefix),
            (k) => k.length === 0,
          ),
        ).toEqual([]);
      }
      expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({ usedBytes: 0, pendingBytes: 0 });
    });

    it('drops a pending file that is not confirmed in time, with what was uploaded for it', async () => {
      const mine = await account(platform, `files-sweep-${kind}`);
      const body = Buffer.from('never confirmed');
      const declared = await declare(platform, mine, body.length);
      const ticket = declared.body.upload as Ticket;
      const id = (declared.body.file as { id: string }).id;
      expect(await put(platform, ticket, body)).toBe(200);
      expect(await keys(filePrefix(ticket))).toHaveLength(1);
      expect((await platform.call('GET', '/v1/files', undefined, mine)).body).toMatchObject({
        usedBytes: body.length,
        pendingBytes: body.length,
      });
      // Its time passes (FILES_PENDING_SECONDS): the sweep drops it and its bytes.
      await platform.query(`UPDATE conversion.saved_file SET pending_until = now() - interval '1 second' WHERE id = $1`, [id]);
      const list = await eventually(
        async () => (await platform.call('GET', '/v1/files', undefined, mine)).body,
        (b) => b.usedBytes === 0,
      );
      expect(list).toMatchObject({ usedBytes: 0, pendingBytes: 0, total: 0 });
      expect(await keys(filePrefix(ticket))).toEqual([]);
      expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, mine)).toMatchObject({ status: 404 });
      if (kind === 'local') expect((await putAnswer(platform, ticket, body)).status).toBe(409);
    });

    if (kind === 'local') {
      it('lets one upload through an upload URL: a second PUT, before or during the first, is refused and changes nothing', async () => {
        for (let trial = 0; trial < 5; trial++) {
          const size = 64;
          const declared = await declare(platform, token, size);
          const ticket = declared.body.upload as Ticket;
          const id = (declared.body.file as { id: string }).id;
          const bodies = Array.from({ length: 6 }, (_, i) => Buffer.alloc(size, String.fromCharCode(65 + i)));
          const answers = await Promise.all(bodies.map((b) => putAnswer(platform, ticket, b)));
          const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
          expect(winners).toHaveLength(1);
          expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 && a.body.error === 'CONFLICT')).toBe(true);
          // One more PUT before complete: refused as well.
          expect(await putAnswer(platform, ticket, Buffer.alloc(size, 'Z'))).toMatchObject({ status: 409 });
          expect(await keys(filePrefix(ticket))).toHaveLength(1);
          expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({ status: 200 });
          expect(await downloaded(platform, token, id)).toEqual(bodies[winners[0]!]);
          await platform.call('DELETE', `/v1/files/${id}`, undefined, token);
        }
      });

      it('lets the upload be tried again after a PUT that failed', async () => {
        const body = Buffer.from('second try works');
        const declared = await declare(platform, token, body.length);
        const ticket = declared.body.upload as Ticket;
        const id = (declared.body.file as { id: string }).id;
        // A client that sends fewer bytes than it announced and hangs up: nothing is stored, the URL still works.
        const url = new URL(absolute(platform, ticket.url));
        await new Promise<void>((resolve) => {
          const req = request(url, { method: 'PUT', headers: { ...ticket.headers, 'content-length': String(body.length) } });
          req.on('error', () => resolve());
          req.on('response', (res) => {
            res.resume();
            resolve();
          });
          req.write(body.subarray(0, 5), () => setTimeout(() => req.destroy(), 200));
        });
        expect(
          await eventually(
            () => keys(filePrefix(ticket)),
            (k) => k.length === 0,
          ),
        ).toEqual([]);
        expect(
          await eventually(
            () => putAnswer(platform, ticket, body),
            (a) => a.status !== 409,
          ),
        ).toMatchObject({ status: 200 });
        expect(await platform.call('POST', `/v1/files/${id}/complete`, undefined, token)).toMatchObject({ status: 200 });
        expect(await downloaded(platform, token, id)).toEqual(body);
        await platform.call('DELETE', `/v1/files/${id}`, undefined, token);
      });
    }
  });
}

describeStorage('local', async () => localKeys(await TestPlatform.start(['identity', 'conversion', 'gateway'], LIMITS)));

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
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  return {
    platform,
    keys: async (prefix) =>
      ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? []).flatMap((o) =>
        o.Key ? [o.Key] : [],
      ),
    close: async () => {
      client.destroy();
      await platform.close();
      await s3.close();
    },
  };
});

describe('declarations under load (100 MiB files, 1 GiB quota)', () => {
  const MiB = 1024 ** 2;
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await TestPlatform.start(['identity', 'conversion', 'gateway'], {
      ...LIMITS,
      FILES_MAX_BYTES: String(100 * MiB),
      FILES_QUOTA_BYTES: String(1024 * MiB),
    });
  }, 90_000);
  afterAll(async () => {
    await platform?.close();
  });

  /** A new account and its user id (from the key of a probe file, deleted again). */
  async function owner(tag: string): Promise<{ token: string; ownerId: string }> {
    const token = await account(platform, tag);
    const probe = await declare(platform, token, 1);
    await platform.call('DELETE', `/v1/files/${(probe.body.file as { id: string }).id}`, undefined, token);
    return { token, ownerId: filePrefix(probe.body.upload as Ticket).split('/')[0]! };
  }

  /** Until no other session of the platform's database has a statement or a transaction open. */
  async function quiet(): Promise<void> {
    await eventually(
      () =>
        platform.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
        ),
      (r) => Number(r[0]?.n) === 0,
    );
  }

  /** Declares `count` files of 100 MiB at once; answers the statuses and the ids the client learnt of. */
  async function burst(token: string, count: number) {
    const answers = await Promise.all(
      Array.from({ length: count }, () => declare(platform, token, 100 * MiB, 'big.bin', 'application/octet-stream')),
    );
    return {
      statuses: answers.map((a) => a.status),
      ids: answers.flatMap((a) => (a.status === 201 ? [(a.body.file as { id: string }).id] : [])),
    };
  }

  /** The account holds exactly the files the 201s announced, and the quota counts exactly them. */
  async function expectExactly(token: string, ownerId: string, ids: string[]): Promise<void> {
    await quiet();
    const wanted = [...ids].sort();
    const held = await eventually(
      async () =>
        (await platform.query<{ id: string }>(`SELECT id FROM conversion.saved_file WHERE owner_id = $1`, [ownerId]))
          .map((r) => r.id)
          .sort(),
      (found) => JSON.stringify(found) === JSON.stringify(wanted),
      5_000,
    );
    expect(held).toEqual(wanted);
    expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({
      usedBytes: ids.length * 100 * MiB,
      pendingBytes: ids.length * 100 * MiB,
    });
  }

  it('15 declarations at once, again and again: what the 201s announced is exactly what is kept and counted', async () => {
    for (let round = 0; round < 5; round++) {
      const { token, ownerId } = await owner('files-burst');
      const { statuses, ids } = await burst(token, 15);
      expect(statuses.every((s) => [201, 413, 503].includes(s))).toBe(true);
      expect(ids.length).toBeLessThanOrEqual(10);
      await expectExactly(token, ownerId, ids);
    }
  });

  it('declarations the gateway stops waiting for (the database is held up) leave nothing behind', async () => {
    const { token, ownerId } = await owner('files-stalled');
    const held = new pg.Client({ connectionString: platform.env.DATABASE_URL });
    await held.connect();
    try {
      // Every insert into saved_file waits behind this lock, past the gateway's RPC deadline.
      await held.query('BEGIN');
      await held.query('LOCK TABLE conversion.saved_file IN EXCLUSIVE MODE');
      const { statuses } = await burst(token, 15);
      expect(statuses.every((s) => s === 503)).toBe(true);
    } finally {
      await held.query('COMMIT');
      await held.end();
    }
    await expectExactly(token, ownerId, []);
    // The account is not stuck: it can declare again.
    const { ids } = await burst(token, 3);
    expect(ids).toHaveLength(3);
    await expectExactly(token, ownerId, ids);
  });

  it('the conversion service records no declaration the gateway has given up on: past its deadline, or withdrawn before or after it arrived', async () => {
    const { token, ownerId } = await owner('files-withdrawn');
    const rpc = await RpcClient.connect({
      natsUrl: platform.env.NATS_URL ?? '',
      prefix: platform.env.NATS_PREFIX ?? '',
      timeoutMs: 10_000,
      name: 'files-int-spec',
    });
    try {
      const declaration = (id: string, deadline?: number) => ({
        id,
        ownerId,
        filename: 'late.bin',
        size: 10,
        ...(deadline !== undefined ? { deadline } : {}),
      });
      // The gateway stopped waiting already.
      const expired = randomUUID();
      await expect(rpc.send(SUBJECTS.conversion.fileCreate, declaration(expired, Date.now() - 1))).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
      // Withdrawn before the declaration arrived (it waited for the account's lock): refused when it comes.
      const overtaken = randomUUID();
      await rpc.send(SUBJECTS.conversion.fileAbandon, { id: overtaken, ownerId });
      await expect(rpc.send(SUBJECTS.conversion.fileCreate, declaration(overtaken))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      // Recorded, but its answer came too late for the gateway: the withdrawal removes it.
      const lost = randomUUID();
      await rpc.send(SUBJECTS.conversion.fileCreate, declaration(lost));
      const recorded = await platform.query<{ id: string }>(`SELECT id FROM conversion.saved_file WHERE owner_id = $1`, [ownerId]);
      expect(recorded).toEqual([{ id: lost }]);
      await rpc.send(SUBJECTS.conversion.fileAbandon, { id: lost, ownerId });
      const held = await platform.query<{ id: string }>(`SELECT id FROM conversion.saved_file WHERE owner_id = $1`, [ownerId]);
      expect(held).toEqual([]);
      expect((await platform.call('GET', '/v1/files', undefined, token)).body).toMatchObject({ usedBytes: 0, pendingBytes: 0 });
    } finally {
      await rpc.close();
    }
  });
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
    const nonce = 'AAAAAAAAAAAAAAAAAAAAAA';
    const grant = { key, expires: Math.floor(Date.now() / 1000) - 5, size: 5, mediaType: 'text/plain', nonce };
    const url = (secret: string, expires: number) =>
      `${platform.url}/v1/storage/${key}?${new URLSearchParams({
        expires: String(expires),
        size: '5',
        type: 'text/plain',
        nonce,
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
