import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_REFUSALS } from '@tinkerdesk/persistence';
import { newAccount, openShop, saveSandboxCard, TestPlatform, uniqueEmail, type RawAnswer, type TestAccount } from '@tinkerdesk/testing';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Idempotency-Key on every create, through the real gateway and services (issue 32, "retries are
 * safe"): the same key and request answer one object however often and however parallel it is sent;
 * another request under the key is refused; an answer lost in flight (the service stalled or killed
 * right after its commit, the gateway answering 503) is answered by the retry with the first object.
 */
let platform: TestPlatform;

type Account = TestAccount;

let seller: Account;
let serviceId: string;
let productId: string;

const account = (tag: string): Promise<Account> => newAccount(platform, tag, 'idempotent password 1');

const keyed = (path: string, body: unknown, key: string, token?: string): Promise<RawAnswer> =>
  platform.request('POST', path, { body, headers: { 'idempotency-key': key }, ...(token ? { token } : {}) });

const count = async (query: string, params: unknown[]): Promise<number> =>
  Number((await platform.query<{ n: string }>(query, params))[0]?.n);

const TERMINAL = {
  label: 'Hall tablet',
  send: true,
  receive: true,
  active: true,
  platform: 'Browser (desktop)',
  capabilities: [],
  remote: false,
};

/** One kind of create: its call, the id of what it answered, how many of them exist, and a different request. */
interface CreateKind {
  name: string;
  status: number;
  /** A fresh request of this kind (each trial its own, so rows are counted per trial). */
  fresh(): Promise<{
    path: string;
    body: Record<string, unknown>;
    token?: string;
    other: Record<string, unknown>;
    rows: () => Promise<number>;
  }>;
  idOf(body: Record<string, unknown>): string;
}

const orderKind: CreateKind = {
  name: 'order (signed out)',
  status: 201,
  fresh: () => {
    const email = uniqueEmail('idem-buyer');
    return Promise.resolve({
      path: `/v1/users/${seller.guid}/services/${serviceId}/order`,
      body: { product: productId, email, note: 'once' },
      other: { product: productId, email, note: 'twice' },
      rows: () => count(`SELECT count(*) AS n FROM "commerce"."order" WHERE "email" = $1`, [email]),
    });
  },
  idOf: (body) => (body.order as { id: string }).id,
};

let kinds: CreateKind[];

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    // Parallel requests under one key each count against the account's job allowance before one of them
    // records the job (the counters are not in its transaction; the others give theirs back after): room
    // for the trials' bursts.
    CONVERSION_JOBS_PER_MINUTE: '1000',
    PUBLIC_URL: 'http://shop.test',
  });
  ({ seller, serviceId, productId } = await openShop(platform, {
    tag: 'idem-seller',
    service: { name: 'Keys', displayName: 'Key Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_keys' },
    product: { name: 'Lesson', price: 900 },
  }));
  kinds = [
    orderKind,
    {
      name: 'payment request',
      status: 201,
      fresh: () => {
        const email = uniqueEmail('idem-payer');
        return Promise.resolve({
          path: '/v1/requests',
          token: seller.token,
          body: { email, service: serviceId, product: productId },
          other: { email, service: serviceId, product: productId, note: 'another' },
          rows: () => count(`SELECT count(*) AS n FROM "commerce"."payment_request" WHERE "email" = $1`, [email]),
        });
      },
      idOf: (body) => (body.request as { id: string }).id,
    },
    {
      name: 'plan',
      status: 201,
      fresh: async () => {
        const payer = await account('idem-plan');
        const card = (await saveSandboxCard(platform, payer.token)).id;
        const start = new Date(Date.now() + 3_600_000).toISOString();
        const body = {
          service: serviceId,
          product: productId,
          interval: 'month',
          reminderDay: -1,
          start,
          timeZone: 'UTC',
          paymentMethod: card,
        };
        const payerId = payer.guid;
        return {
          path: '/v1/plans',
          token: payer.token,
          body,
          other: { ...body, interval: 'quarter' },
          rows: () => count(`SELECT count(*) AS n FROM "commerce"."plan" WHERE "payer_id" = $1`, [payerId]),
        };
      },
      idOf: (body) => (body.plan as { id: string }).id,
    },
    {
      name: 'terminal',
      status: 201,
      fresh: async () => {
        const owner = await account('idem-terminal');
        return {
          path: '/v1/terminals',
          token: owner.token,
          body: TERMINAL,
          other: { ...TERMINAL, label: 'Another tablet' },
          rows: () => count(`SELECT count(*) AS n FROM "terminals"."terminal" WHERE "user_id" = $1`, [owner.guid]),
        };
      },
      // A retry answers the same terminal with a new token (only hashes of tokens are stored).
      idOf: (body) => (body.terminal as { id: string }).id,
    },
    {
      name: 'share',
      status: 200,
      fresh: async () => {
        const owner = await account('idem-share');
        const target = await platform.call('POST', '/v1/terminals', TERMINAL, owner.token);
        const terminalId = (target.body.terminal as { id: string }).id;
        return {
          path: `/v1/terminals/${terminalId}/share`,
          token: owner.token,
          body: { contentType: 'text/plain', content: 'a note once' },
          other: { contentType: 'text/plain', content: 'another note' },
          rows: () => count(`SELECT count(*) AS n FROM "terminals"."share" WHERE "terminal_id" = $1`, [terminalId]),
        };
      },
      idOf: (body) => (body.share as { id: string }).id,
    },
    {
      name: 'saved file',
      status: 201,
      fresh: async () => {
        const owner = await account('idem-file');
        return {
          path: '/v1/files',
          token: owner.token,
          body: { filename: 'notes.txt', mediaType: 'text/plain', size: 12 },
          other: { filename: 'notes.txt', mediaType: 'text/plain', size: 13 },
          rows: () => count(`SELECT count(*) AS n FROM "conversion"."saved_file" WHERE "owner_id" = $1`, [owner.guid]),
        };
      },
      idOf: (body) =>
        `${(body.file as { id: string }).id} ${(body.upload as { url: string }).url.replace(/[?&](expires|signature|X-Amz-[A-Za-z]+)=[^&]*/g, '')}`,
    },
    {
      name: 'service',
      status: 201,
      fresh: async () => {
        const owner = await account('idem-service');
        const body = { name: 'Lessons', displayName: 'Lesson Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_lessons' };
        return {
          path: `/v1/users/${owner.guid}/services`,
          token: owner.token,
          body,
          other: { ...body, name: 'Other lessons' },
          rows: () => count(`SELECT count(*) AS n FROM "commerce"."service" WHERE "user_id" = $1`, [owner.guid]),
        };
      },
      idOf: (body) => (body.service as { id: string }).id,
    },
    {
      name: 'product',
      status: 201,
      fresh: async () => {
        const shop = await openShop(platform, {
          tag: 'idem-product',
          service: { name: 'Prints', displayName: 'Print Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_prints' },
          product: { name: 'First print', price: 500 },
        });
        const body = { name: 'Poster', price: 1200 };
        return {
          path: `/v1/users/${shop.seller.guid}/services/${shop.serviceId}/products`,
          token: shop.seller.token,
          body,
          other: { ...body, price: 1300 },
          rows: () =>
            count(`SELECT count(*) AS n FROM "commerce"."product" WHERE "service_id" = $1 AND "name" = 'Poster'`, [shop.serviceId]),
        };
      },
      idOf: (body) => (body.product as { id: string }).id,
    },
    {
      name: 'card setup',
      status: 201,
      fresh: async () => {
        const payer = await account('idem-card');
        return {
          path: '/v1/paymentmethods',
          token: payer.token,
          body: { provider: 'sandbox' },
          other: { provider: 'stripe' },
          rows: () =>
            count(`SELECT count(*) AS n FROM "commerce"."sandbox_session" WHERE "user_id" = $1 AND "mode" = 'setup'`, [payer.guid]),
        };
      },
      idOf: (body) => `${(body.setup as { id: string }).id} ${(body.setup as { url: string }).url}`,
    },
    {
      name: 'order reply',
      status: 200,
      fresh: async () => {
        const placed = await platform.call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
          product: productId,
          email: uniqueEmail('idem-reply'),
          note: 'to answer',
        });
        const orderId = (placed.body.order as { id: string }).id;
        return {
          path: `/v1/orders/${orderId}/reply`,
          token: seller.token,
          body: { note: 'Ships on Monday.' },
          other: { note: 'Ships on Tuesday.' },
          rows: () => count(`SELECT count(*) AS n FROM "commerce"."order_reply" WHERE "order_id" = $1`, [orderId]),
        };
      },
      idOf: (body) => (body.order as { id: string }).id,
    },
    {
      name: 'contact question (signed out)',
      status: 200,
      fresh: () => {
        const email = uniqueEmail('idem-contact');
        return Promise.resolve({
          path: '/v1/contact',
          body: { name: 'Ada', email, question: 'Do you ship to Lisbon?' },
          other: { name: 'Ada', email, question: 'Do you ship to Porto?' },
          rows: () => count(`SELECT count(*) AS n FROM "identity"."contact_message" WHERE "email" = $1`, [email]),
        });
      },
      idOf: (body) => String(body.id),
    },
    {
      name: 'OAuth app',
      status: 201,
      fresh: async () => {
        const owner = await account('idem-app');
        const body = { name: 'Shelf scanner', redirectUris: ['https://scanner.example/callback'], scopes: ['profile'] };
        return {
          path: '/v1/oauth2/apps',
          token: owner.token,
          body,
          other: { ...body, name: 'Another scanner' },
          rows: () => count(`SELECT count(*) AS n FROM "identity"."oauth_app" WHERE "user_id" = $1`, [owner.guid]),
        };
      },
      // A retry answers the same app with a new secret (only its hash is stored): compared by id.
      idOf: (body) => (body.app as { id: string }).id,
    },
  ];
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

describe('many parallel requests with one key: exactly one object', () => {
  it.each([
    'order (signed out)',
    'payment request',
    'plan',
    'terminal',
    'share',
    'saved file',
    'service',
    'product',
    'card setup',
    'order reply',
    'contact question (signed out)',
    'OAuth app',
  ])('%s: 12 at once, 3 trials; every answer the one object (or 409 still being processed)', async (name) => {
    const kind = kinds.find((k) => k.name === name)!;
    for (let trial = 0; trial < 3; trial++) {
      const request = await kind.fresh();
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 12 }, () => keyed(request.path, request.body, key, request.token)));
      const created = answers.filter((a) => a.status === kind.status);
      for (const refused of answers.filter((a) => a.status !== kind.status)) {
        expect({ kind: kind.name, status: refused.status, body: refused.body }).toEqual({
          kind: kind.name,
          status: 409,
          body: { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.busy },
        });
      }
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((a) => kind.idOf(a.body))).size).toBe(1);
      expect(await request.rows()).toBe(1);
      // Later, once more: the same object again; another request under the key: refused, nothing made.
      const again = await keyed(request.path, request.body, key, request.token);
      expect([again.status, kind.idOf(again.body)]).toEqual([kind.status, kind.idOf(created[0]!.body)]);
      const other = await keyed(request.path, request.other, key, request.token);
      expect({ kind: kind.name, status: other.status, body: other.body }).toEqual({
        kind: kind.name,
        status: 409,
        body: { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.mismatch },
      });
      expect(await request.rows()).toBe(1);
      // Without a key, or with a new one, a second object.
      expect((await keyed(request.path, request.body, randomUUID(), request.token)).status).toBe(kind.status);
      expect(await request.rows()).toBe(2);
    }
  });

  it('an OAuth app’s retry: the same app with a new secret; the earlier answer’s secret is replaced (only the latest one’s hash is kept)', async () => {
    const owner = await account('idem-app-secret');
    const body = { name: 'Shelf scanner', redirectUris: ['https://scanner.example/callback'], scopes: ['profile'] };
    const key = randomUUID();
    const first = await keyed('/v1/oauth2/apps', body, key, owner.token);
    const again = await keyed('/v1/oauth2/apps', body, key, owner.token);
    expect([first.status, again.status]).toEqual([201, 201]);
    const id = (first.body.app as { id: string }).id;
    expect((again.body.app as { id: string }).id).toBe(id);
    expect(typeof again.body.clientSecret).toBe('string');
    expect(again.body.clientSecret).not.toBe(first.body.clientSecret);
    const [stored] = await platform.query<{ hash: string }>(`SELECT "secret_hash" AS "hash" FROM "identity"."oauth_app" WHERE "id" = $1`, [
      id,
    ]);
    expect(stored!.hash).toBe(createHash('sha256').update(String(again.body.clientSecret)).digest('hex'));
    // A public app has no secret: its retry answers none.
    const publicKey = randomUUID();
    const publicBody = { ...body, name: 'Browser scanner', tokenEndpointAuthMethod: 'none' };
    const made = await keyed('/v1/oauth2/apps', publicBody, publicKey, owner.token);
    const retried = await keyed('/v1/oauth2/apps', publicBody, publicKey, owner.token);
    expect([made.body.clientSecret, retried.body.clientSecret]).toEqual([null, null]);
    expect((retried.body.app as { id: string }).id).toBe((made.body.app as { id: string }).id);
  });

  it('a key is the account’s own: another account under the same key makes its own object', async () => {
    const [a, b] = [await account('idem-a'), await account('idem-b')];
    const key = randomUUID();
    const first = await keyed('/v1/terminals', TERMINAL, key, a.token);
    const second = await keyed('/v1/terminals', TERMINAL, key, b.token);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((first.body.terminal as { id: string }).id).not.toBe((second.body.terminal as { id: string }).id);
    // The same for the creates keyed since (one key, two accounts, each its own object).
    const service = { name: 'Lessons', displayName: 'Lesson Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_lessons' };
    const app = { name: 'Shelf scanner', redirectUris: ['https://scanner.example/callback'], scopes: ['profile'] };
    const both = async (path: (who: Account) => string, body: unknown, pick: (b: Record<string, unknown>) => unknown) => {
      const [x, y] = [await keyed(path(a), body, key, a.token), await keyed(path(b), body, key, b.token)];
      expect([x.status, y.status]).toEqual([201, 201]);
      expect(pick(x.body)).not.toEqual(pick(y.body));
    };
    await both(
      (who) => `/v1/users/${who.guid}/services`,
      service,
      (body) => (body.service as { id: string }).id,
    );
    await both(
      () => '/v1/oauth2/apps',
      app,
      (body) => (body.app as { id: string }).id,
    );
    await both(
      () => '/v1/paymentmethods',
      { provider: 'sandbox' },
      (body) => (body.setup as { id: string }).id,
    );
  });

  it('sign-up: 8 at once, 3 trials; one account, every answer a session of it; a retry with another password or zone is refused', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const email = uniqueEmail('idem-sign-up');
      const body = { email, password: 'idempotent password 1', tz: 'Europe/Berlin' };
      const accounts = () => count(`SELECT count(*) AS n FROM "identity"."user" WHERE lower("email") = lower($1)`, [email]);
      const key = randomUUID();
      // Fewer than the other kinds: each retry is a sign-in try of the account from this address (10 in 15 minutes).
      const answers = await Promise.all(Array.from({ length: 8 }, () => keyed('/v1/users', body, key)));
      const created = answers.filter((a) => a.status === 201);
      for (const refused of answers.filter((a) => a.status !== 201)) {
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: 409,
          body: { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.busy },
        });
      }
      expect(created.length).toBeGreaterThan(0);
      const guids = new Set(created.map((a) => (a.body.profile as { guid: string }).guid));
      expect(guids.size).toBe(1);
      expect(new Set(created.map((a) => a.body.token)).size).toBe(created.length);
      expect(await accounts()).toBe(1);
      // Each token answered is a session of that account.
      for (const answer of created) {
        const me = await platform.call('GET', '/v1/users/me', undefined, String(answer.body.token));
        expect([me.status, me.body.guid]).toEqual([200, [...guids][0]]);
      }
      // Later, once more: the same account, a new session.
      const again = await keyed('/v1/users', body, key);
      expect([again.status, (again.body.profile as { guid: string }).guid]).toEqual([201, [...guids][0]]);
      // Another password, or another zone, under the key: refused, nothing opened.
      const mismatch = { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.mismatch };
      expect(await keyed('/v1/users', { ...body, password: 'not the password 1' }, key)).toMatchObject({ status: 409, body: mismatch });
      expect(await keyed('/v1/users', { ...body, tz: 'Europe/Paris' }, key)).toMatchObject({ status: 409, body: mismatch });
      // Without the key (or with another), the address is in use, as before.
      expect((await keyed('/v1/users', body, randomUUID())).body).toMatchObject({ success: false, error: 'EMAIL_IN_USE' });
      expect(await accounts()).toBe(1);
    }
  });

  it('a bad key is a 400 with the envelope, before anything is made', async () => {
    const { path, body, rows } = await orderKind.fresh();
    for (const bad of ['has space', 'x'.repeat(256), 'tab\tkey', 'é']) {
      const answer = await platform.request('POST', path, { body, headers: { 'idempotency-key': bad } });
      expect({ bad, status: answer.status, body: answer.body }).toEqual({
        bad,
        status: 400,
        body: {
          success: false,
          error: 'VALIDATION_FAILED',
          detail: 'Idempotency-Key must be 1 to 255 printable characters without spaces',
        },
      });
    }
    expect(await rows()).toBe(0);
  });
});

/** A connection of the test's own to the platform's database, to hold a lock. */
async function holder(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: platform.env.DATABASE_URL });
  await client.connect();
  return client;
}

/** Waits until a statement of the platform waits for a lock the test holds (fails with what ran, or the early answer). */
async function someoneWaits(client: pg.Client, pending: Promise<RawAnswer>): Promise<void> {
  let early: RawAnswer | undefined;
  void pending.then((answer) => (early = answer));
  for (let i = 0; i < 200 && early === undefined; i++) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const { rows } = await client.query(
    `SELECT state, wait_event_type, left(query, 120) AS query FROM pg_stat_activity WHERE datname = current_database()`,
  );
  throw new Error(`nothing waited for the lock: ${JSON.stringify(early ?? rows)}`);
}

describe('the answer is lost in flight; the retry answers the first object', () => {
  it('order: commerce commits, stalls before answering, the gateway answers 503, commerce is killed; the retry answers that order', async () => {
    const { path, body, rows } = await orderKind.fresh();
    const key = randomUUID();
    const client = await holder();
    try {
      // The order's answer reads its late payments after the commit: holding that table keeps the
      // answer from being made, with the order and its key committed.
      await client.query('BEGIN');
      await client.query(`LOCK TABLE "commerce"."late_payment" IN ACCESS EXCLUSIVE MODE`);
      const lost = keyed(path, body, key);
      await someoneWaits(client, lost);
      const answer = await lost;
      expect(answer).toMatchObject({ status: 503, body: { success: false, error: 'UNAVAILABLE' } });
      expect(await rows()).toBe(1);
      await platform.stopProcess('commerce', 'SIGKILL');
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
    const [placed] = await platform.query<{ id: string }>(`SELECT "id" FROM "commerce"."order" WHERE "email" = $1`, [body.email]);
    await platform.startProcess('commerce');
    const retry = await keyed(path, body, key);
    expect(retry.status).toBe(201);
    expect(orderKind.idOf(retry.body)).toBe(placed!.id);
    expect(await rows()).toBe(1);
  });

  it('terminal: terminals stopped mid-transaction (SIGSTOP), the gateway answers 503, it resumes and commits; the retry answers that terminal with a new token', async () => {
    const owner = await account('idem-lost-terminal');
    const key = randomUUID();
    const rows = () => count(`SELECT count(*) AS n FROM "terminals"."terminal" WHERE "user_id" = $1`, [owner.guid]);
    const pid = platform.pidOf('terminals')!;
    const client = await holder();
    let stopped = false;
    try {
      await client.query('BEGIN');
      await client.query(`LOCK TABLE "terminals"."terminal" IN SHARE MODE`);
      const lost = keyed('/v1/terminals', TERMINAL, key, owner.token);
      await someoneWaits(client, lost);
      process.kill(pid, 'SIGSTOP');
      stopped = true;
      await client.query('COMMIT'); // the insert goes on; the rest of its transaction waits for the process
      const answer = await lost;
      expect(answer).toMatchObject({ status: 503, body: { success: false, error: 'UNAVAILABLE' } });
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
      await client.end();
    }
    const retry = await keyed('/v1/terminals', TERMINAL, key, owner.token);
    expect(retry.status).toBe(201);
    expect(await rows()).toBe(1);
    const [row] = await platform.query<{ id: string }>(`SELECT "id" FROM "terminals"."terminal" WHERE "user_id" = $1`, [owner.guid]);
    expect((retry.body.terminal as { id: string }).id).toBe(row!.id);
    // The token the retry answered is the terminal's own: it reads the terminal's inbox.
    const inbox = await platform.call('GET', `/v1/terminals/${row!.id}/inbox`, undefined, String(retry.body.terminalToken));
    expect(inbox.status).toBe(200);
    // Tokens are stored as hashes only: another retry gets the same terminal with a new token, and the
    // token of the earlier answer stops working.
    const again = await keyed('/v1/terminals', TERMINAL, key, owner.token);
    expect((again.body.terminal as { id: string }).id).toBe(row!.id);
    expect(again.body.terminalToken).not.toBe(retry.body.terminalToken);
    expect((await platform.call('GET', `/v1/terminals/${row!.id}/inbox`, undefined, String(again.body.terminalToken))).status).toBe(200);
    expect((await platform.call('GET', `/v1/terminals/${row!.id}/inbox`, undefined, String(retry.body.terminalToken))).status).toBe(401);
    expect(await rows()).toBe(1);
  });
});

describe('conversion jobs under a key', () => {
  /** One multipart upload of `bytes` as notes.txt to PDF, under `key`. */
  async function upload(token: string, bytes: string, key: string, query = ''): Promise<{ status: number; body: Record<string, unknown> }> {
    const form = new FormData();
    form.set('file', new Blob([new TextEncoder().encode(bytes)]), 'notes.txt');
    form.set('to', 'pdf');
    const res = await fetch(`${platform.url}/v1/convert/upload${query}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const jobs = (owner: Account) => count(`SELECT count(*) AS n FROM "conversion"."job" WHERE "owner_id" = $1`, [owner.guid]);

  it('an upload: 12 at once, 3 trials, one job each; a retry later answers it; another file under the key is refused', async () => {
    const owner = await account('idem-job');
    for (let trial = 0; trial < 3; trial++) {
      const key = randomUUID();
      const text = `the same notes, trial ${trial}\n`;
      const answers = await Promise.all(Array.from({ length: 12 }, () => upload(owner.token, text, key)));
      const created = answers.filter((a) => a.status === 202);
      for (const refused of answers.filter((a) => a.status !== 202)) {
        expect(refused).toEqual({ status: 409, body: { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.busy } });
      }
      expect(created.length).toBeGreaterThan(0);
      const ids = new Set(created.map((a) => (a.body.job as { id: string }).id));
      expect(ids.size).toBe(1);
      expect(await jobs(owner)).toBe(trial + 1);
      // Later, with a wait: the same job (its own copy of the file is not kept), nothing new.
      const again = await upload(owner.token, text, key, '?wait=1');
      expect([again.status, (again.body.job as { id: string }).id]).toEqual([202, [...ids][0]]);
      const other = await upload(owner.token, `${text}and more`, key);
      expect(other).toEqual({ status: 409, body: { success: false, error: 'CONFLICT', detail: IDEMPOTENCY_REFUSALS.mismatch } });
      expect(await jobs(owner)).toBe(trial + 1);
    }
    // The jobs' listing has the three, once each.
    const list = await platform.call('GET', '/v1/convert/jobs', undefined, owner.token);
    expect(list.body.total).toBe(3);
    // The account's allowances counted each job once (the retries gave back what they counted), bytes too.
    const bytes = [0, 1, 2].reduce((sum, trial) => sum + `the same notes, trial ${trial}\n`.length, 0);
    expect(await allowance(owner)).toEqual({ jobs: 3, bytes });
  });

  /** What the account's conversion allowances have counted this minute (jobs) and today (bytes), as Redis holds them. */
  async function allowance(owner: Account): Promise<{ jobs: number; bytes: number }> {
    const redis = new Redis(platform.env.REDIS_URL ?? '', { lazyConnect: true });
    try {
      await redis.connect();
      const prefix = `${platform.env.REDIS_PREFIX}:rl`;
      const [jobs, bytes] = await redis.mget(`${prefix}:conversion-jobs:${owner.guid}`, `${prefix}:conversion-bytes:${owner.guid}`);
      return { jobs: Number(jobs ?? 0), bytes: Number(bytes ?? 0) };
    } finally {
      redis.disconnect();
    }
  }
});
