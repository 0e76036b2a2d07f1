import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AppError, prefixed, REQUEST_ID_HEADER, SUBJECTS } from '@tinkerdesk/contracts';
import { requestContext } from './context.js';
import { RpcClient } from './rpc-client.js';
import { ReplySerializer } from './rpc-reply.js';

// The real NATS on localhost, under a prefix of this run's own; the "service" is a plain subscription
// answering in the packet format of Nest's NATS transport.
const prefix = `t${randomBytes(4).toString('hex')}`;
const subject = SUBJECTS.identity.userMe;
let service: NatsConnection;
let rpc: RpcClient;
let silent = false;

/** How the services frame their replies (PrefixedNatsServer); Nest's own form for what it does not frame. */
const framing = new ReplySerializer({ serialize: (packet: object) => ({ data: JSON.stringify(packet) }) });
/** Answers of the "framed-…" users: a big one (about 600 KB, under NATS's 1 MB payload) and unicode. */
const BIG = { orders: Array.from({ length: 4000 }, (_, i) => ({ id: `order-${i}`, note: 'Shipped today, ünïcödé 🎨. '.repeat(4) })) };
const UNICODE = { name: 'Café 🎨 印刷 \u2028\u2029 \ud800 "q" \\ \n', ключ: 'значение' };

beforeAll(async () => {
  service = await connect({ servers: 'nats://localhost:4222' });
  service.subscribe(prefixed(prefix, subject), {
    callback: (_error, msg) => {
      if (silent) return;
      const packet = msg.json<{ id: string; data: { userId: string } }>();
      const requestId = msg.headers?.get(REQUEST_ID_HEADER);
      const user = packet.data.userId;
      if (user === 'not-json') {
        msg.respond('<html>502 Bad Gateway</html>');
        return;
      }
      if (user.startsWith('framed-')) {
        const reply =
          user === 'framed-missing'
            ? { id: packet.id, err: { code: 'NOT_FOUND', detail: 'no such user' }, isDisposed: true }
            : {
                id: packet.id,
                response: user === 'framed-big' ? BIG : user === 'framed-unicode' ? UNICODE : { email: `${user}@example.com` },
                isDisposed: true,
              };
        msg.respond((framing.serialize(reply) as { data: string }).data);
        return;
      }
      const reply =
        packet.data.userId === 'missing'
          ? { id: packet.id, err: { code: 'NOT_FOUND', detail: 'no such user' }, isDisposed: true }
          : { id: packet.id, response: { email: `${packet.data.userId}@example.com`, requestId }, isDisposed: true };
      // Answers out of order, so each reply must find its own request.
      setTimeout(() => msg.respond(JSON.stringify(reply)), Math.floor(Math.random() * 20));
    },
  });
  await service.flush();
  rpc = await RpcClient.connect({ natsUrl: 'nats://localhost:4222', prefix, timeoutMs: 1000, name: 'rpc-client-test', probeMs: 100 });
});

afterAll(async () => {
  await rpc?.close();
  await service?.drain();
});

describe('RpcClient.send (replies on its own inbox)', () => {
  it('gives each of many parallel requests its own answer, with the request id in the headers', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `user${i}`);
    const answers = await requestContext.run({ requestId: 'req-rpc-client-test' }, () =>
      Promise.all(ids.map((userId) => rpc.send(subject, { userId }))),
    );
    expect(answers.map((a) => a.email)).toEqual(ids.map((id) => `${id}@example.com`));
    expect(new Set(answers.map((a) => (a as unknown as { requestId: string }).requestId))).toEqual(new Set(['req-rpc-client-test']));
  });

  it("turns the service's error payload into its AppError", async () => {
    await expect(rpc.send(subject, { userId: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND', detail: 'no such user' });
  });

  it('answers UNAVAILABLE at once when no service listens on the subject', async () => {
    const started = performance.now();
    const error = await rpc.send(SUBJECTS.identity.userPublic, { id: '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', detail: 'the identity service is not available' });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('answers UNAVAILABLE after the deadline when the service does not answer, and drops the late reply', async () => {
    silent = true;
    try {
      const started = performance.now();
      await expect(rpc.send(subject, { userId: 'late' }, 200)).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        detail: 'the identity service did not answer within 200 ms',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      // The service answered nothing since: unresponsive, its next calls refused at once, unsent.
      const refused = performance.now();
      await expect(rpc.send(subject, { userId: 'refused' })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        detail: 'the identity service is not available',
      });
      expect(performance.now() - refused).toBeLessThan(100);
    } finally {
      silent = false;
    }
    // After the probe interval (100 ms here) one call goes through as the probe; its answer admits every call again.
    await new Promise((r) => setTimeout(r, 150));
    await expect(rpc.send(subject, { userId: 'after' })).resolves.toMatchObject({ email: 'after@example.com' });
    await expect(Promise.all([rpc.send(subject, { userId: 'a' }), rpc.send(subject, { userId: 'b' })])).resolves.toHaveLength(2);
  });

  it("admits a service's calls again as soon as it answers, a late reply too", async () => {
    silent = true;
    let held: Array<() => void> = [];
    const late = await connect({ servers: 'nats://localhost:4222' });
    // A second replica that holds its replies and sends them late (as a process resumed after SIGSTOP does).
    late.subscribe(prefixed(prefix, subject), {
      callback: (_error, msg) => {
        const packet = msg.json<{ id: string }>();
        held.push(() => msg.respond(JSON.stringify({ id: packet.id, response: { email: 'late@example.com' }, isDisposed: true })));
      },
    });
    await late.flush();
    // No probe within this test: only the late reply can admit the calls again.
    const client = await RpcClient.connect({
      natsUrl: 'nats://localhost:4222',
      prefix,
      timeoutMs: 1000,
      name: 'rpc-client-test-late',
      probeMs: 60_000,
    });
    try {
      await expect(client.send(subject, { userId: 'held' }, 150)).rejects.toMatchObject({
        detail: 'the identity service did not answer within 150 ms',
      });
      await expect(client.send(subject, { userId: 'refused' })).rejects.toMatchObject({ detail: 'the identity service is not available' });
      for (const reply of held) reply();
      held = [];
      await late.flush();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      silent = false;
      await late.drain();
    }
    try {
      await expect(client.send(subject, { userId: 'again' })).resolves.toMatchObject({ email: 'again@example.com' });
    } finally {
      await client.close();
    }
  });
});

describe('RpcClient: a call given a longer deadline than usual', () => {
  it('does not mark its service unresponsive when it times out (it may be slow by itself)', async () => {
    const client = await RpcClient.connect({
      natsUrl: 'nats://localhost:4222',
      prefix,
      timeoutMs: 100,
      name: 'rpc-client-test-long',
      probeMs: 60_000,
    });
    silent = true;
    try {
      await expect(client.send(subject, { userId: 'long' }, 200)).rejects.toMatchObject({
        detail: 'the identity service did not answer within 200 ms',
      });
      // Sent, and waited for: not refused at once.
      await expect(client.send(subject, { userId: 'next' })).rejects.toMatchObject({
        detail: 'the identity service did not answer within 100 ms',
      });
    } finally {
      silent = false;
      await client.close();
    }
  });
});

describe('RpcClient.passThrough (the answer as the service wrote it)', () => {
  it("gives a framed answer's exact bytes, and each of many parallel requests its own", async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `framed-${i}`);
    const answers = await Promise.all(ids.map((userId) => rpc.passThrough(subject, { userId })));
    expect(answers.map((a) => a.bytes.toString('utf8'))).toEqual(ids.map((id) => JSON.stringify({ email: `${id}@example.com` })));
  });

  it('passes a big answer and unicode through byte for byte', async () => {
    const big = await rpc.passThrough(subject, { userId: 'framed-big' });
    expect(big.bytes.length).toBeGreaterThan(500_000);
    expect(big.bytes.equals(Buffer.from(JSON.stringify(BIG)))).toBe(true);
    const unicode = await rpc.passThrough(subject, { userId: 'framed-unicode' });
    expect(unicode.bytes.toString('utf8')).toBe(JSON.stringify(UNICODE));
    expect(unicode.value()).toEqual(UNICODE);
  });

  it("turns the service's error payload into its AppError, as send does", async () => {
    await expect(rpc.passThrough(subject, { userId: 'framed-missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      detail: 'no such user',
    });
    await expect(rpc.passThrough(subject, { userId: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND', detail: 'no such user' });
  });

  it("reads a reply in Nest's own order (a replica not updated yet) as send does, encoding its answer again", async () => {
    const answer = await rpc.passThrough(subject, { userId: 'old-replica' });
    expect(answer.value()).toMatchObject({ email: 'old-replica@example.com' });
    expect(answer.bytes.toString('utf8')).toBe(JSON.stringify(answer.value()));
  });

  it('fails, as send does, on a reply that is not JSON: nothing of it reaches the caller', async () => {
    const error = await rpc.passThrough(subject, { userId: 'not-json' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    expect((error as Error).message).toBe('identity service answered with something that is not JSON');
    await expect(rpc.send(subject, { userId: 'not-json' })).rejects.toThrow('not JSON');
  });
});
