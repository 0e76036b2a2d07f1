import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { startLoopbackPush, TEST_VAPID, TestPlatform, uniqueEmail, type LoopbackPushService } from '@tinkerdesk/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.js';
import { PushSender } from '../src/push/push-sender.js';
import { TerminalsRepository } from '../src/terminals/terminals.repository.js';
import { TerminalsService } from '../src/terminals/terminals.service.js';

/**
 * Terminals through the real gateway, identity and terminals services: registration (the token shown
 * once), reading, renaming, switching, removal; shares to the inbox with every refusal (another
 * account's terminal, a terminal token used for another terminal, receive off, inactive, oversize,
 * unknown content type); Web Push against a push service on loopback that checks VAPID and decrypts
 * the aes128gcm payload, with 410 pruning and retries through a push service that fails twice; a
 * share's push queued from the outbox after commit, exactly once across kills of the terminals process.
 */
let platform: TestPlatform;
// A push service for tests that speaks the Web Push protocol and decrypts what it receives.
let pushService: LoopbackPushService;
let pushPort: number;
let flaky: Server;
let flakyPort: number;
let flakyFailures = 0;
let flakyRequests = 0;
let db: DataSource;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

interface Account {
  token: string;
}

async function account(tag: string): Promise<Account> {
  const created = await call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'terminals password 1' });
  return { token: created.body.token as string };
}

const TERMINAL = {
  label: 'Kitchen tablet',
  send: true,
  receive: true,
  active: true,
  platform: 'Browser (desktop)',
  capabilities: ['push'],
  remote: false,
};

async function register(owner: Account, fields: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const answer = await call('POST', '/v1/terminals', { ...TERMINAL, ...fields }, owner.token);
  expect(answer.status).toBe(201);
  return { id: (answer.body.terminal as { id: string }).id, token: answer.body.terminalToken as string };
}

/** A browser's subscription at the loopback push service. */
const subscription = () => pushService.subscribe();

/** The decrypted messages the push service took for a subscription. */
const pushedMessages = (clientHash: string) => pushService.messages(clientHash);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const shareState = async (owner: Account, terminalId: string, shareId: string) => {
  const inbox = await call('GET', `/v1/terminals/${terminalId}/inbox?limit=100`, undefined, owner.token);
  if (inbox.status !== 200) throw new Error(`inbox answered ${inbox.status}: ${JSON.stringify(inbox.body)}`);
  return (inbox.body.shares as Array<{ id: string; push: string }>).find((s) => s.id === shareId)?.push;
};

/** A share's push state once its delivery is settled (no longer pending). */
const pushOutcome = (owner: Account, terminalId: string, shareId: string) =>
  until(
    () => shareState(owner, terminalId, shareId),
    (s) => s !== 'pending',
  );

beforeAll(async () => {
  pushService = await startLoopbackPush();
  pushPort = pushService.port;
  // A push service that answers 503 to its first `flakyFailures` requests, then forwards to the real one.
  flaky = createServer((req, res) => {
    flakyRequests++;
    if (flakyFailures > 0) {
      flakyFailures--;
      req.resume();
      res.writeHead(503).end('busy');
      return;
    }
    const forward = httpRequest(
      { host: 'localhost', port: pushPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  flakyPort = (flaky.address() as AddressInfo).port;
  platform = await TestPlatform.start(['identity', 'terminals', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUSH_ALLOWED_HOSTS: 'localhost',
    PUSH_RETRY_DELAY_MS: '50',
    PUSH_ATTEMPTS: '4',
    OUTBOX_POLL_MS: '200',
  });
  db = new DataSource(serviceDataSourceOptions(dataSourceOptions(platform.env.DATABASE_URL!)));
  await db.initialize();
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await platform?.close();
  await new Promise((r) => flaky?.close(r));
  await pushService?.close();
});

describe('registering and managing terminals', () => {
  it('registers with 201 and a token shown once; lists, reads, renames, switches and removes', async () => {
    const owner = await account('terminal-owner');
    const created = await call(
      'POST',
      '/v1/terminals',
      { ...TERMINAL, details: { browser: 'Chromium 156' }, capabilities: ['push', 'share-target', 'push'] },
      owner.token,
    );
    expect(created).toMatchObject({
      status: 201,
      body: {
        terminal: {
          label: 'Kitchen tablet',
          send: true,
          receive: true,
          active: true,
          platform: 'Browser (desktop)',
          capabilities: ['push', 'share-target'],
          details: { browser: 'Chromium 156' },
          remote: false,
          destination: null,
          subscribed: false,
          inbox: 0,
        },
        terminalToken: expect.stringMatching(/^tt_[A-Za-z0-9_-]{43}$/),
      },
    });
    const id = (created.body.terminal as { id: string }).id;
    const token = created.body.terminalToken as string;
    const list = await call('GET', '/v1/terminals', undefined, owner.token);
    expect(list.body.terminals).toEqual([expect.objectContaining({ id })]);
    expect(JSON.stringify(list.body)).not.toContain(token);
    // The terminal reads itself with its own token.
    expect(await call('GET', `/v1/terminals/${id}`, undefined, token)).toMatchObject({ status: 200, body: { terminal: { id } } });
    const renamed = await call('POST', `/v1/terminals/${id}`, { label: '  Phone ', receive: false }, owner.token);
    expect(renamed.body.terminal).toMatchObject({ label: 'Phone', receive: false, send: true });
    expect((await call('DELETE', `/v1/terminals/${id}`, undefined, owner.token)).status).toBe(204);
    expect(await call('GET', `/v1/terminals/${id}`, undefined, owner.token)).toMatchObject({ status: 404 });
    // Its token died with it.
    expect(await call('GET', `/v1/terminals/${id}`, undefined, token)).toMatchObject({ status: 401, body: { error: 'INVALID_TOKEN' } });
  });

  it.each([
    [{ label: '' }, 'label must not be empty'],
    [{ label: '   ' }, 'label must not be empty'],
    [{ label: 'x'.repeat(81) }, 'label may have at most 80 characters'],
    [{ platform: 'Smart fridge' }, 'platform must be one of: Browser (mobile), Browser (desktop)'],
    [{ capabilities: ['Push!'] }, 'each capability is a short lower-case name'],
    [{ capabilities: 'push' }, 'capabilities must be a list'],
    [{ send: 'yes' }, 'send must be true or false'],
    [{ details: { a: 1 } }, 'details must be an object of at most 20 text values'],
    [
      { details: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
      'details must be an object of at most 20 text values',
    ],
  ])('refuses %j with 400', async (fields, detail) => {
    const owner = await account('bad-terminal');
    const answer = await call('POST', '/v1/terminals', { ...TERMINAL, ...fields }, owner.token);
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: 'VALIDATION_FAILED', detail: expect.stringContaining(detail) },
    });
    expect((await call('GET', '/v1/terminals', undefined, owner.token)).body.terminals).toEqual([]);
  });

  it('needs a token; another user’s terminal is answered as missing; a destination must be another own terminal', async () => {
    expect(await call('POST', '/v1/terminals', TERMINAL)).toMatchObject({ status: 401 });
    const owner = await account('dest-owner');
    const stranger = await account('dest-stranger');
    const mine = await register(owner);
    const other = await register(owner, { label: 'Laptop' });
    const theirs = await register(stranger);
    for (const [method, path] of [
      ['GET', `/v1/terminals/${theirs.id}`],
      ['POST', `/v1/terminals/${theirs.id}`],
      ['DELETE', `/v1/terminals/${theirs.id}`],
      ['GET', `/v1/terminals/${theirs.id}/inbox`],
    ] as const) {
      expect(await call(method, path, method === 'POST' ? { label: 'Mine now' } : undefined, owner.token)).toMatchObject({
        status: 404,
        body: { error: 'NOT_FOUND' },
      });
    }
    expect(await call('POST', `/v1/terminals/${mine.id}`, { destination: mine.id }, owner.token)).toMatchObject({ status: 422 });
    expect(await call('POST', `/v1/terminals/${mine.id}`, { destination: theirs.id }, owner.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/terminals/${mine.id}`, { destination: 'laptop' }, owner.token)).toMatchObject({ status: 400 });
    expect((await call('POST', `/v1/terminals/${mine.id}`, { destination: other.id }, owner.token)).body.terminal).toMatchObject({
      destination: other.id,
    });
    expect((await call('POST', `/v1/terminals/${mine.id}`, { destination: null }, owner.token)).body.terminal).toMatchObject({
      destination: null,
    });
    // A terminal token acts for its own terminal only.
    expect(await call('GET', `/v1/terminals/${other.id}`, undefined, mine.token)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/terminals/${mine.id}`, undefined, `tt_${'x'.repeat(43)}`)).toMatchObject({ status: 401 });
  });
});

describe('sharing', () => {
  it('keeps a share in the target’s inbox, newest first, with paging past the end; deletes it', async () => {
    const owner = await account('sharer');
    const target = await register(owner);
    for (const n of [1, 2, 3]) {
      const sent = await call(
        'POST',
        `/v1/terminals/${target.id}/share`,
        { contentType: 'text/x-uri', content: `https://example.com/${n}`, description: `Link ${n}` },
        owner.token,
      );
      expect(sent).toMatchObject({
        status: 200,
        body: {
          share: {
            terminalId: target.id,
            fromTerminalId: null,
            contentType: 'text/x-uri',
            content: `https://example.com/${n}`,
            push: 'none',
          },
        },
      });
    }
    const inbox = await call('GET', `/v1/terminals/${target.id}/inbox?limit=2`, undefined, owner.token);
    expect(inbox.body).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect((inbox.body.shares as Array<{ description: string }>).map((s) => s.description)).toEqual(['Link 3', 'Link 2']);
    expect((await call('GET', `/v1/terminals/${target.id}/inbox?offset=50`, undefined, owner.token)).body).toMatchObject({
      shares: [],
      total: 3,
    });
    const first = (inbox.body.shares as Array<{ id: string }>)[0]!.id;
    expect((await call('DELETE', `/v1/terminals/${target.id}/inbox/${first}`, undefined, owner.token)).status).toBe(204);
    expect(await call('DELETE', `/v1/terminals/${target.id}/inbox/${first}`, undefined, owner.token)).toMatchObject({ status: 404 });
    expect((await call('GET', `/v1/terminals/${target.id}`, undefined, owner.token)).body.terminal).toMatchObject({ inbox: 2 });
  });

  it('refuses, never drops: another account’s terminal, receive off, inactive, a sender that may not send, bad content', async () => {
    const owner = await account('refusals');
    const stranger = await account('refusals-stranger');
    const theirs = await register(stranger);
    const deaf = await register(owner, { receive: false });
    const off = await register(owner, { active: false });
    const mute = await register(owner, { send: false });
    const ok = await register(owner);
    const body = { contentType: 'text/plain', content: 'hello', description: 'A note' };
    expect(await call('POST', `/v1/terminals/${theirs.id}/share`, body, owner.token)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    expect(await call('POST', `/v1/terminals/${theirs.id}/share`, body, ok.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/terminals/${deaf.id}/share`, body, owner.token)).toMatchObject({
      status: 409,
      body: { detail: 'Kitchen tablet does not receive shares' },
    });
    expect(await call('POST', `/v1/terminals/${off.id}/share`, body, owner.token)).toMatchObject({
      status: 409,
      body: { detail: 'Kitchen tablet is inactive: it receives nothing' },
    });
    expect(await call('POST', `/v1/terminals/${ok.id}/share`, body, mute.token)).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN' },
    });
    expect(await call('POST', `/v1/terminals/${ok.id}/share`, { ...body, contentType: 'image/png' }, owner.token)).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('contentType must be one of: text/x-uri, text/plain') },
    });
    expect(await call('POST', `/v1/terminals/${ok.id}/share`, { ...body, content: 'x'.repeat(8193) }, owner.token)).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('content may have at most 8192 characters') },
    });
    expect(await call('POST', `/v1/terminals/${ok.id}/share`, { ...body, description: 'x'.repeat(501) }, owner.token)).toMatchObject({
      status: 400,
    });
    expect(await call('POST', `/v1/terminals/not-a-uuid/share`, body, owner.token)).toMatchObject({ status: 400 });
    expect(await call('POST', `/v1/terminals/${ok.id}/share`, body)).toMatchObject({ status: 401 });
    // Nothing was kept anywhere.
    for (const t of [deaf, off, ok])
      expect((await call('GET', `/v1/terminals/${t.id}`, undefined, owner.token)).body.terminal).toMatchObject({ inbox: 0 });
  });

  it('a terminal’s own token to its own id (the share sheet) goes to its chosen destination; to another terminal directly', async () => {
    const owner = await account('share-sheet');
    const phone = await register(owner, { label: 'Phone', platform: 'Browser (mobile)' });
    const desk = await register(owner, { label: 'Desk' });
    await call('POST', `/v1/terminals/${phone.id}`, { destination: desk.id }, owner.token);
    const sent = await call(
      'POST',
      `/v1/terminals/${phone.id}/share`,
      { contentType: 'text/x-uri', content: 'https://example.org/', description: 'From the phone' },
      phone.token,
    );
    expect(sent.body.share).toMatchObject({ terminalId: desk.id, fromTerminalId: phone.id });
    const direct = await call('POST', `/v1/terminals/${desk.id}/share`, { contentType: 'text/plain', content: 'hi' }, phone.token);
    expect(direct.body.share).toMatchObject({ terminalId: desk.id, fromTerminalId: phone.id, description: '' });
    expect((await call('GET', `/v1/terminals/${desk.id}`, undefined, owner.token)).body.terminal).toMatchObject({ inbox: 2 });
    // The desk's token cannot read the phone's inbox.
    expect(await call('GET', `/v1/terminals/${phone.id}/inbox`, undefined, desk.token)).toMatchObject({ status: 404 });
  });
});

describe('Web Push', () => {
  it('serves the VAPID public key', async () => {
    expect(await call('GET', '/v1/push/key')).toMatchObject({ status: 200, body: { publicKey: TEST_VAPID.publicKey } });
  });

  it('refuses subscriptions whose endpoint is not https or points inside the network, and one for another terminal', async () => {
    const owner = await account('push-ssrf');
    const t = await register(owner);
    const other = await register(owner, { label: 'Other' });
    const keys = (await subscription()).keys;
    for (const endpoint of [
      'http://push.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'ftp://push.example.com/x',
    ]) {
      const answer = await call('POST', `/v1/terminals/${t.id}/subscription`, { endpoint, keys }, owner.token);
      expect({ endpoint, status: answer.status }).toEqual({ endpoint, status: 400 });
    }
    expect(
      await call(
        'POST',
        `/v1/terminals/${t.id}/subscription`,
        { endpoint: 'https://push.example.com/x', keys: { p256dh: 'x', auth: 'y' } },
        owner.token,
      ),
    ).toMatchObject({
      status: 400,
    });
    const sub = await subscription();
    expect(await call('POST', `/v1/terminals/${other.id}/subscription`, { endpoint: sub.endpoint, keys: sub.keys }, t.token)).toMatchObject(
      {
        status: 404,
      },
    );
  });

  it('pushes a share, encrypted and signed, to the terminal’s push service, which decrypts it', async () => {
    const owner = await account('push');
    const t = await register(owner);
    const sub = await subscription();
    const saved = await call(
      'POST',
      `/v1/terminals/${t.id}/subscription`,
      { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys },
      t.token,
    );
    expect(saved).toMatchObject({ status: 200, body: { terminal: { subscribed: true } } });
    const sent = await call(
      'POST',
      `/v1/terminals/${t.id}/share`,
      { contentType: 'text/x-uri', content: 'https://example.com/pushed', description: 'Read this' },
      owner.token,
    );
    const shareId = (sent.body.share as { id: string; push: string }).id;
    expect((sent.body.share as { push: string }).push).toBe('pending');
    expect(await pushOutcome(owner, t.id, shareId)).toBe('sent');
    expect((await pushedMessages(sub.clientHash)).map((m) => JSON.parse(m) as unknown)).toEqual([
      {
        title: 'A link for you',
        description: 'Read this',
        action: 'Open',
        contentType: 'text/x-uri',
        content: 'https://example.com/pushed',
        shareId,
        terminalId: t.id,
      },
    ]);
    // Push off.
    expect((await call('DELETE', `/v1/terminals/${t.id}/subscription`, undefined, owner.token)).body.terminal).toMatchObject({
      subscribed: false,
    });
  });

  it('a subscription the push service says is gone (410) is removed; the share stays in the inbox', async () => {
    const owner = await account('push-410');
    const t = await register(owner);
    const sub = await subscription();
    await call('POST', `/v1/terminals/${t.id}/subscription`, { endpoint: sub.endpoint, keys: sub.keys }, owner.token);
    expect(await pushService.expire(sub.clientHash)).toBe(200);
    const sent = await call('POST', `/v1/terminals/${t.id}/share`, { contentType: 'text/plain', content: 'anyone there?' }, owner.token);
    const shareId = (sent.body.share as { id: string }).id;
    expect(await pushOutcome(owner, t.id, shareId)).toBe('failed');
    expect((await call('GET', `/v1/terminals/${t.id}`, undefined, owner.token)).body.terminal).toMatchObject({
      subscribed: false,
      inbox: 1,
    });
    // The next share is kept without a push.
    const next = await call('POST', `/v1/terminals/${t.id}/share`, { contentType: 'text/plain', content: 'still here' }, owner.token);
    expect(next.body.share).toMatchObject({ push: 'none' });
  });

  it('a push service that fails twice (503) is tried again until it takes the message', async () => {
    const owner = await account('push-retry');
    const t = await register(owner);
    const sub = await subscription();
    const endpoint = sub.endpoint.replace(`localhost:${pushPort}`, `localhost:${flakyPort}`);
    await call('POST', `/v1/terminals/${t.id}/subscription`, { endpoint, keys: sub.keys }, owner.token);
    flakyFailures = 2;
    flakyRequests = 0;
    const sent = await call('POST', `/v1/terminals/${t.id}/share`, { contentType: 'text/plain', content: 'third time lucky' }, owner.token);
    const shareId = (sent.body.share as { id: string }).id;
    expect(await pushOutcome(owner, t.id, shareId)).toBe('sent');
    expect(flakyRequests).toBe(3);
    expect((await pushedMessages(sub.clientHash)).map((m) => (JSON.parse(m) as { content: string }).content)).toEqual(['third time lucky']);
  });
});

describe('the push of a share after commit (the outbox of terminals)', () => {
  const notifications = async (clientHash: string) =>
    (await pushedMessages(clientHash)).map((m) => (JSON.parse(m) as { shareId: string }).shareId);
  const eventOf = (shareId: string) =>
    sql.maybeOne<{ id: string; name: string; published_at: Date | null }>(
      db,
      `SELECT "id", "name", "published_at" FROM "terminals"."outbox_event" WHERE "aggregate_id" = $1`,
      [shareId],
    );

  it('a share committed while the process is down is pushed once after the restart, also when its event is published again', async () => {
    const owner = await account('push-outbox');
    const t = await register(owner);
    const sub = await subscription();
    await call('POST', `/v1/terminals/${t.id}/subscription`, { endpoint: sub.endpoint, keys: sub.keys }, owner.token);
    const { user_id: userId } = await sql.one<{ user_id: string }>(db, `SELECT "user_id" FROM "terminals"."terminal" WHERE "id" = $1`, [
      t.id,
    ]);

    // Killed after the commit and before the publish: the service's own code commits the share and
    // its event here while the process is down, so the event is in the outbox only.
    await platform.stopProcess('terminals', 'SIGKILL');
    const sender = new PushSender({
      publicKey: TEST_VAPID.publicKey,
      privateKey: TEST_VAPID.privateKey,
      subject: 'mailto:test@example.com',
      ttlSeconds: 3600,
      timeoutMs: 5000,
      allowedHosts: new Set(['localhost']),
    });
    const share = await new TerminalsService(new TerminalsRepository(db), sender).send({
      userId,
      terminalId: t.id,
      contentType: 'text/plain',
      content: 'sent while terminals was down',
    });
    expect(share.push).toBe('pending');
    expect(await eventOf(share.id)).toMatchObject({ name: 'terminals.share.created', published_at: null });
    await platform.startProcess('terminals');
    expect(await pushOutcome(owner, t.id, share.id)).toBe('sent');
    expect(await notifications(sub.clientHash)).toEqual([share.id]);
    const event = await eventOf(share.id);
    expect(event?.published_at).not.toBeNull();

    // Killed after the publish and before the mark: published again after the restart (JetStream
    // drops the second publish of the same event id), and the share is still pushed once.
    await platform.stopProcess('terminals', 'SIGKILL');
    await sql.execute(db, `UPDATE "terminals"."outbox_event" SET "published_at" = NULL WHERE "id" = $1`, [event!.id]);
    await platform.startProcess('terminals');
    await until(
      async () => (await eventOf(share.id))?.published_at ?? null,
      (at) => at !== null,
    );
    // A later share, handled after the republished event (one at a time, in order): once it is
    // pushed, the first had every chance to be pushed twice.
    const later = await call('POST', `/v1/terminals/${t.id}/share`, { contentType: 'text/plain', content: 'later' }, owner.token);
    const laterId = (later.body.share as { id: string }).id;
    expect(await pushOutcome(owner, t.id, laterId)).toBe('sent');
    expect(await notifications(sub.clientHash)).toEqual([share.id, laterId]);
    // Each listener handled the event once (the live listener may finish a moment after the push).
    const processed = await until(
      () =>
        sql.rows<{ listener: string }>(
          db,
          `SELECT "listener" FROM "terminals"."processed_event" WHERE "event_id" = $1 ORDER BY "listener"`,
          [event!.id],
        ),
      (rows) => rows.length >= 2,
    );
    expect(processed.map((p) => p.listener)).toEqual(['terminals-live', 'terminals-push']);
  }, 60_000);
});
