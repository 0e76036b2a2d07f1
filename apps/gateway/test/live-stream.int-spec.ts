import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { liveStreamName } from '@tinkerdesk/contracts';
import { createRedis } from '@tinkerdesk/nest-common';
import {
  LiveStreamReader,
  mailedResetToken,
  mailedToken,
  newAccount,
  openShop,
  queryDatabase,
  TestPlatform,
  type TestAccount,
} from '@tinkerdesk/testing';
import { mkdtempSync } from 'node:fs';
import { LiveSlots } from '../src/live/live-slots.js';
import { LiveStreams } from '../src/live/live-streams.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The live event stream (GET /v1/events/stream) through the real gateway, identity, commerce and
 * terminals: a user's events arrive (a share in a terminal's inbox, terminals registered and removed,
 * an order paid for its seller and its buyer), another user's never do; a reconnect with
 * Last-Event-ID gets what was missed; heartbeats; over the per-user limit 429, without a token 401
 * (both in the envelope); a logout ends the stream.
 */
let platform: TestPlatform;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

const TERMINAL = { label: 'Desk', send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false };

async function terminal(owner: TestAccount, label: string): Promise<{ id: string; token: string }> {
  const answer = await call('POST', '/v1/terminals', { ...TERMINAL, label }, owner.token);
  expect(answer.status).toBe(201);
  return { id: (answer.body.terminal as { id: string }).id, token: answer.body.terminalToken as string };
}

const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };
const SERVICE = { name: 'Live shop', displayName: 'Live shop', provider: 'sandbox' as const, vendor: 'digital', account: 'sandbox_live' };

/** A sandbox shop and an order its buyer (an account) placed, not paid yet. */
async function shopAndOrder(tag: string): Promise<{ seller: TestAccount; buyer: TestAccount; orderId: string }> {
  const { seller, serviceId, productId } = await openShop(platform, { tag, service: SERVICE, product: { name: 'Poster', price: 1200 } });
  const buyer = await newAccount(platform, `${tag}-buyer`);
  const placed = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/order`,
    { product: productId, email: buyer.email, share: false },
    buyer.token,
  );
  expect(placed.status).toBe(201);
  return { seller, buyer, orderId: (placed.body.order as { id: string }).id };
}

/** A card saved through the sandbox's card page, as a browser would: its id. */
async function saveCard(who: TestAccount): Promise<string> {
  const setup = await call('POST', '/v1/paymentmethods', {}, who.token);
  expect(setup.status).toBe(201);
  const { id } = setup.body.setup as { id: string };
  expect((await call('POST', `/v1/sandbox/sessions/${id}/pay`, CARD)).status).toBe(200);
  const kept = await call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, who.token);
  expect(kept.status).toBe(200);
  return (kept.body.instrument as { id: string }).id;
}

async function share(owner: TestAccount, to: string, content: string): Promise<string> {
  const answer = await call(
    'POST',
    `/v1/terminals/${to}/share`,
    { contentType: 'text/x-uri', content, description: 'a link' },
    owner.token,
  );
  expect(answer.status).toBe(200);
  return (answer.body.share as { id: string }).id;
}

const Stream = { open: (token: string | undefined, lastEventId?: string) => LiveStreamReader.open(platform.url, token, lastEventId) };

const open: LiveStreamReader[] = [];
async function stream(token: string, lastEventId?: string): Promise<LiveStreamReader> {
  const opened = await Stream.open(token, lastEventId);
  expect(opened.status).toBe(200);
  open.push(opened.stream!);
  return opened.stream!;
}

const dataDir = mkdtempSync(join(tmpdir(), 'tinkerdesk-live-'));

const resetToken = (address: string) => mailedResetToken(dataDir, address);

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'gateway'], {
    DATA_DIR: dataDir,
    RATE_LIMIT_FACTOR: '1000',
    PLAN_SWEEP_SECONDS: '5',
    LIVE_BUFFER_BYTES: '4096',
    PUBLIC_URL: 'http://shop.test',
    OUTBOX_POLL_MS: '200',
    LIVE_STREAMS_PER_USER: '2',
    LIVE_HEARTBEAT_MS: '300',
    LIVE_RECHECK_MS: '500',
  });
}, 120_000);

afterAll(async () => {
  for (const s of open) s.close();
  await platform?.close();
});

describe('GET /v1/events/stream', () => {
  it('refuses a caller without a token (401) or with a bad one (401 INVALID_TOKEN), in the envelope', async () => {
    const none = await Stream.open(undefined);
    expect(none).toMatchObject({ status: 401, body: { success: false, error: 'UNAUTHORIZED' } });
    const bad = await Stream.open('not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ success: false, error: 'INVALID_TOKEN' });
  });

  it('delivers a share and terminal changes to their owner only, with heartbeats; another user sees none of them', async () => {
    const alice = await newAccount(platform, 'live-alice');
    const mallory = await newAccount(platform, 'live-mallory');
    const mine = await stream(alice.token);
    const theirs = await stream(mallory.token);
    const desk = await terminal(alice, 'Desk');
    const phone = await terminal(alice, 'Phone');
    const shareId = await share(alice, phone.id, 'https://example.com/live');
    const got = await mine.until(() => mine.events().find((e) => e.type === 'share.received'));
    expect(got.ids).toEqual({ shareId, terminalId: phone.id });
    expect(
      mine
        .events()
        .filter((e) => e.type === 'terminal.registered')
        .map((e) => e.ids.terminalId),
    ).toEqual([desk.id, phone.id]);
    // Minimal payloads: the share's content never travels on the stream.
    expect(JSON.stringify(mine.frames)).not.toContain('example.com');
    expect((await call('DELETE', `/v1/terminals/${desk.id}`, undefined, alice.token)).status).toBe(204);
    await mine.until(() => mine.events().find((e) => e.type === 'terminal.removed' && e.ids.terminalId === desk.id));
    await mine.until(() => mine.frames.some((f) => f.comment && !f.data));
    // Mallory's stream was open the whole time and heard only heartbeats.
    await theirs.until(() => theirs.frames.filter((f) => f.comment).length >= 3);
    expect(theirs.events()).toEqual([]);
    // Ids are increasing stream sequences.
    const ids = mine.events().map((e) => Number(e.id));
    expect(ids.every((id, i) => Number.isInteger(id) && id > 0 && (i === 0 || id > ids[i - 1]!))).toBe(true);
  });

  it('tells the seller and the buyer of an order paid, and nobody else', async () => {
    const { seller, buyer, orderId } = await shopAndOrder('live-paid');
    const other = await newAccount(platform, 'live-other');
    const [sellerStream, buyerStream, otherStream] = await Promise.all([stream(seller.token), stream(buyer.token), stream(other.token)]);
    const started = await call('POST', `/v1/orders/${orderId}/pay`, undefined, buyer.token);
    expect(started.status).toBe(200);
    const paid = await call('POST', `/v1/sandbox/sessions/${started.body.sessionId as string}/pay`, CARD);
    expect(paid.status).toBe(200);
    for (const s of [sellerStream, buyerStream]) expect((await s.event('order.paid')).ids).toEqual({ orderId });
    await otherStream.until(() => otherStream.heartbeats() >= 3);
    expect(otherStream.events()).toEqual([]);
  });

  it('tells both sides of an order of each reply, whoever wrote it', async () => {
    const { seller, buyer, orderId } = await shopAndOrder('live-reply');
    const [sellerStream, buyerStream] = await Promise.all([stream(seller.token), stream(buyer.token)]);
    const replies = (s: LiveStreamReader) => s.events().filter((e) => e.type === 'order.replied');
    for (const [n, author, note] of [
      [1, buyer, 'Is it A2?'],
      [2, seller, 'Yes, A2.'],
    ] as const) {
      expect((await call('POST', `/v1/orders/${orderId}/reply`, { note }, author.token)).status).toBe(200);
      for (const s of [sellerStream, buyerStream]) await s.until(() => replies(s).length >= n);
    }
    for (const s of [sellerStream, buyerStream]) {
      expect(replies(s).map((e) => e.ids.orderId)).toEqual([orderId, orderId]);
      expect(new Set(replies(s).map((e) => e.ids.replyId)).size).toBe(2);
    }
  });

  it('tells the seller and the payer (a verified address of an account) of a request received, accepted and declined, and nobody else', async () => {
    const { seller, serviceId, productId } = await openShop(platform, {
      tag: 'live-request',
      service: SERVICE,
      product: { name: 'Poster', price: 1200 },
    });
    const payer = await newAccount(platform, 'live-payer');
    // A request names an account as its payer only once that account's address is verified.
    const verify = await mailedToken(dataDir, payer.email, /\/v1\/account\/verify\?token=([A-Za-z0-9_-]{43})/);
    expect((await call('GET', `/v1/account/verify?token=${verify}`)).status).toBeLessThan(400);
    const other = await newAccount(platform, 'live-request-other');
    const [sellerStream, payerStream, otherStream] = await Promise.all([stream(seller.token), stream(payer.token), stream(other.token)]);
    const send = async () => {
      const sent = await call(
        'POST',
        '/v1/requests',
        { email: payer.email, note: 'For the poster', service: serviceId, product: productId },
        seller.token,
      );
      expect(sent.status).toBe(201);
      return (sent.body.request as { id: string }).id;
    };
    const accepted = await send();
    const declined = await send();
    for (const s of [sellerStream, payerStream]) {
      await s.event('request.received', { requestId: accepted });
      await s.event('request.received', { requestId: declined });
    }
    const accepting = await call('POST', `/v1/requests/${accepted}/accept`, { email: payer.email }, payer.token);
    expect(accepting.status).toBe(200);
    const orderId = (accepting.body.order as { id: string }).id;
    expect((await call('POST', `/v1/requests/${declined}/decline`, undefined, payer.token)).status).toBe(200);
    for (const s of [sellerStream, payerStream]) {
      expect((await s.event('request.accepted', { requestId: accepted })).ids).toEqual({ requestId: accepted, orderId });
      expect((await s.event('request.declined', { requestId: declined })).ids).toEqual({ requestId: declined });
    }
    await otherStream.until(() => otherStream.heartbeats() >= 3);
    expect(otherStream.events()).toEqual([]);
  });

  it('tells the payer and the seller of a plan charged by the scheduler', async () => {
    const { seller, serviceId, productId } = await openShop(platform, {
      tag: 'live-plan',
      service: SERVICE,
      product: { name: 'Lesson', price: 2500 },
    });
    const payer = await newAccount(platform, 'live-plan-payer');
    const card = await saveCard(payer);
    const [sellerStream, payerStream] = await Promise.all([stream(seller.token), stream(payer.token)]);
    const created = await call(
      'POST',
      '/v1/plans',
      {
        service: serviceId,
        product: productId,
        interval: 'month',
        reminderDay: -1,
        start: new Date(Date.now() + 10 * 60_000).toISOString(),
        timeZone: 'Europe/Berlin',
        paymentMethod: card,
      },
      payer.token,
    );
    expect(created.status).toBe(201);
    const planId = (created.body.plan as { id: string }).id;
    for (const s of [sellerStream, payerStream]) await s.event('plan.changed', { planId });
    // Its first charge falls due now (as the clock reaching it would): the scheduler's sweep (every 5 s) charges it.
    await queryDatabase(platform.env.DATABASE_URL!, `UPDATE "commerce"."plan" SET "next_charge_at" = now() WHERE "id" = $1`, [planId]);
    for (const s of [payerStream, sellerStream]) {
      const charged = await s.event('plan.charged', { planId }, 30_000);
      expect(charged.ids).toEqual({ planId, paymentId: expect.any(String) });
    }
  }, 60_000);

  it('resumes after Last-Event-ID with what was missed, on a new connection', async () => {
    const bob = await newAccount(platform, 'live-bob');
    const first = await stream(bob.token);
    const inbox = await terminal(bob, 'Inbox');
    const seen = await first.until(() => first.events().find((e) => e.type === 'terminal.registered'));
    first.close();
    const missed = [await share(bob, inbox.id, 'https://example.com/1'), await share(bob, inbox.id, 'https://example.com/2')];
    // Published after the commit (outbox): wait until both are on the stream before reconnecting.
    const probe = await stream(bob.token, seen.id);
    const replayed = await probe.until(() => {
      const got = probe.events().filter((e) => e.type === 'share.received');
      return got.length >= 2 ? got : undefined;
    });
    expect(replayed.map((e) => e.ids.shareId)).toEqual(missed);
    expect(probe.events().some((e) => e.id === seen.id)).toBe(false);
    probe.close();
  });

  it('refuses a stream past the per-user limit with 429 RATE_LIMITED, and admits one again once a stream closes', async () => {
    const carol = await newAccount(platform, 'live-carol');
    const a = await stream(carol.token);
    await stream(carol.token);
    const third = await Stream.open(carol.token);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    a.close();
    let again: { status: number } = { status: 0 };
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const tried = await Stream.open(carol.token);
      if (tried.stream) open.push(tried.stream);
      again = tried;
    }
    expect(again.status).toBe(200);
  });

  it('ends the stream when its session is logged out', async () => {
    const dave = await newAccount(platform, 'live-dave');
    const s = await stream(dave.token);
    expect((await call('POST', `/v1/users/${dave.guid}/logout`, {}, dave.token)).status).toBeLessThan(300);
    await s.until(() => s.ended, 5000);
    expect(s.frames.find((f) => f.event === 'end')?.data).toContain('session ended');
    expect((await Stream.open(dave.token)).status).toBe(401);
  });

  it('ends every stream of the account when its password is reset (all sessions revoked), and admits none with the old token', async () => {
    const erin = await newAccount(platform, 'live-erin');
    const other = (await call('POST', `/v1/users/${encodeURIComponent(erin.email)}/signin`, { password: 'live-erin test password' })).body
      .token as string;
    const [first, second] = [await stream(erin.token), await stream(other)];
    await call('POST', '/v1/account/resetpassword/setup', { email: erin.email });
    const token = await resetToken(erin.email);
    expect((await call('POST', '/v1/account/resetpassword', { token, password: 'after the reset' })).status).toBe(200);
    for (const s of [first, second]) {
      await s.until(() => s.ended, 5000);
      expect(s.frames.find((f) => f.event === 'end')?.data).toContain('session ended');
    }
    expect(await Stream.open(erin.token)).toMatchObject({ status: 401, body: { success: false, error: 'INVALID_TOKEN' } });
  });

  it('answers 503 UNAVAILABLE in the envelope, before any 200, when the live JetStream stream is gone; the next stream recreates it', async () => {
    const frank = await newAccount(platform, 'live-frank');
    const before = await stream(frank.token);
    const nc = await connect({ servers: platform.env.NATS_URL });
    try {
      // JetStream lost its storage under the gateway: reading the stream fails.
      await (await jetstreamManager(nc)).streams.delete(liveStreamName(platform.env.NATS_PREFIX ?? ''));
    } finally {
      await nc.close();
    }
    const refused = await Stream.open(frank.token);
    expect(refused).toMatchObject({
      status: 503,
      body: { success: false, error: 'UNAVAILABLE', detail: expect.stringContaining('live events') },
    });
    // Recovers: the stream is made again, and events flow.
    const after = await stream(frank.token);
    const desk = await terminal(frank, 'Desk');
    expect((await after.event('terminal.registered', { terminalId: desk.id })).ids).toEqual({ terminalId: desk.id });
    before.close();
  });

  it('ends the stream at the next recheck when its session expires', async () => {
    const hana = await newAccount(platform, 'live-hana');
    const s = await stream(hana.token);
    // The session's time is up (as it would be after SESSION_TTL): no revocation is announced, the recheck finds it.
    await queryDatabase(platform.env.DATABASE_URL!, `UPDATE "identity"."session" SET "expires_at" = now() WHERE "user_id" = $1`, [
      hana.guid,
    ]);
    await s.until(() => s.ended, 10_000);
    expect(s.frames.find((f) => f.event === 'end')?.data).toContain('session ended');
  });

  it('drops a reader that leaves more than LIVE_BUFFER_BYTES unread (its connection destroyed, its place given back); Last-Event-ID then gets what it missed', async () => {
    const gina = await newAccount(platform, 'live-gina');
    const inbox = await terminal(gina, 'Inbox');
    const nc = await connect({ servers: platform.env.NATS_URL });
    const slots = new LiveSlots(createRedis(platform.env.REDIS_URL!, 'live-test'), platform.env.REDIS_PREFIX!, 1, 60_000, 1);
    const streams = new LiveStreams(
      nc,
      platform.env.NATS_PREFIX ?? '',
      { send: () => Promise.resolve({}) as never },
      slots,
      { heartbeatMs: 60_000, bufferBytes: 1024, recheckMs: 60_000, openTimeoutMs: 5000 },
      { warn: () => undefined },
    );
    // A client that reads nothing: every byte written stays unread.
    const sink = {
      chunks: [] as string[],
      writableLength: 0,
      destroyed: false,
      ended: false,
      write(chunk: string): boolean {
        this.chunks.push(chunk);
        this.writableLength += Buffer.byteLength(chunk);
        return false;
      },
      end(): void {
        this.ended = true;
      },
      destroy(): void {
        this.destroyed = true;
      },
    };
    try {
      let began!: () => void;
      const opened = new Promise<void>((r) => (began = r));
      const done = streams.stream({ userId: gina.guid, sessionId: 'unread', token: gina.token }, sink, {
        after: undefined,
        closed: new Promise<void>(() => undefined),
        begin: () => began(),
      });
      await opened;
      const shares: string[] = [];
      for (let i = 0; i < 12 && !sink.destroyed; i++) shares.push(await share(gina, inbox.id, `https://example.com/unread/${i}`));
      await done;
      expect(sink).toMatchObject({ destroyed: true, ended: false });
      expect(streams.count(gina.guid)).toBe(0);
      // Its place is free again: the limit here is 1.
      await (await slots.take(gina.guid)).release();
      // The client read the first event only; it reconnects after it and gets every share since.
      const firstId = /^id: (\d+)$/m.exec(sink.chunks.find((c) => c.startsWith('id: '))!)![1]!;
      const again = await stream(gina.token, firstId);
      const missed = await again.until(() => {
        const got = again.events().filter((e) => e.type === 'share.received');
        return got.length >= shares.length - 1 ? got : undefined;
      });
      expect(missed.map((e) => e.ids.shareId)).toEqual(shares.slice(1));
    } finally {
      await streams.closeAll();
      await nc.close();
    }
  });
});
