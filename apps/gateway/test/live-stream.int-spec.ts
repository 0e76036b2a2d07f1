import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newAccount, openShop, TestPlatform, type TestAccount } from '@tinkerdesk/testing';

/**
 * The live event stream (GET /v1/events/stream) through the real gateway, identity, commerce and
 * terminals: a user's events arrive (a share in a terminal's inbox, terminals registered and removed,
 * an order paid for its seller and its buyer), another user's never do; a reconnect with
 * Last-Event-ID gets what was missed; heartbeats; over the per-user limit 429, without a token 401
 * (both in the envelope); a logout ends the stream.
 */
let platform: TestPlatform;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: boolean;
}

/** An open stream: its frames as they arrive (a small SSE reader). */
class Stream {
  readonly frames: Frame[] = [];
  ended = false;
  private readonly controller = new AbortController();

  static async open(token: string | undefined, lastEventId?: string): Promise<{ status: number; body?: unknown; stream?: Stream }> {
    const s = new Stream();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const res = await fetch(`${platform.url}/v1/events/stream`, { headers, signal: s.controller.signal });
    if (res.status !== 200) return { status: res.status, body: await res.json() };
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    void s.read(res.body!);
    return { status: 200, stream: s };
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = true;
            const m = /^(id|event|data): ?(.*)$/.exec(line);
            if (m) frame[m[1] as 'id' | 'event' | 'data'] = m[2];
          }
          this.frames.push(frame);
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
  }

  events(): Array<{ id: string; type: string; ids: Record<string, unknown> }> {
    return this.frames
      .filter((f) => f.data && f.event !== 'end')
      .map((f) => ({ id: f.id ?? '', type: f.event ?? '', ids: (JSON.parse(f.data!) as { ids: Record<string, unknown> }).ids }));
  }

  async until<T>(find: () => T | undefined, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined && found !== false) return found;
      if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms; frames: ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.controller.abort();
  }
}

const TERMINAL = { label: 'Desk', send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false };

async function terminal(owner: TestAccount, label: string): Promise<{ id: string; token: string }> {
  const answer = await call('POST', '/v1/terminals', { ...TERMINAL, label }, owner.token);
  expect(answer.status).toBe(201);
  return { id: (answer.body.terminal as { id: string }).id, token: answer.body.terminalToken as string };
}

async function share(owner: TestAccount, to: string, content: string): Promise<string> {
  const answer = await call('POST', `/v1/terminals/${to}/share`, { contentType: 'text/x-uri', content, description: 'a link' }, owner.token);
  expect(answer.status).toBe(200);
  return (answer.body.share as { id: string }).id;
}

const open: Stream[] = [];
async function stream(token: string, lastEventId?: string): Promise<Stream> {
  const opened = await Stream.open(token, lastEventId);
  expect(opened.status).toBe(200);
  open.push(opened.stream!);
  return opened.stream!;
}

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    OUTBOX_POLL_MS: '200',
    LIVE_STREAMS_PER_USER: '2',
    LIVE_HEARTBEAT_MS: '300',
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
    expect(mine.events().filter((e) => e.type === 'terminal.registered').map((e) => e.ids.terminalId)).toEqual([desk.id, phone.id]);
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
    const { seller, serviceId, productId } = await openShop(platform, {
      tag: 'live-seller',
      service: { name: 'Live shop', displayName: 'Live shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_live' },
      product: { name: 'Poster', price: 1200 },
    });
    const buyer = await newAccount(platform, 'live-buyer');
    const other = await newAccount(platform, 'live-other');
    const [sellerStream, buyerStream, otherStream] = await Promise.all([stream(seller.token), stream(buyer.token), stream(other.token)]);
    const placed = await call(
      'POST',
      `/v1/users/${seller.guid}/services/${serviceId}/order`,
      { product: productId, email: buyer.email, share: false },
      buyer.token,
    );
    expect(placed.status).toBe(201);
    const orderId = (placed.body.order as { id: string }).id;
    const started = await call('POST', `/v1/orders/${orderId}/pay`, undefined, buyer.token);
    expect(started.status).toBe(200);
    const paid = await call('POST', `/v1/sandbox/sessions/${started.body.sessionId as string}/pay`, {
      number: '4242424242424242',
      expiry: '12 / 34',
      cvc: '123',
    });
    expect(paid.status).toBe(200);
    for (const s of [sellerStream, buyerStream]) {
      const event = await s.until(() => s.events().find((e) => e.type === 'order.paid'));
      expect(event.ids).toEqual({ orderId });
    }
    await otherStream.until(() => otherStream.frames.filter((f) => f.comment).length >= 3);
    expect(otherStream.events()).toEqual([]);
  });

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
});
