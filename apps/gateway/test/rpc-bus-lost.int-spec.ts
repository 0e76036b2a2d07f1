import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { prefixed, SUBJECTS } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { OwnNats } from '@tinkerdesk/testing';

// The gateway's calls on a NATS server of the test's own that stops while they wait for their replies:
// a call given a long deadline (a payment's, 20 s) must not hang until it; the outage tests caught a
// payment whose answer took longer than the client waited.
const prefix = 'busl';
const subject = SUBJECTS.identity.userMe;
let nats: OwnNats;
let service: NatsConnection;
let rpc: RpcClient;

beforeAll(async () => {
  nats = await OwnNats.start();
  service = await connect({ servers: nats.url, name: 'silent-service' });
  // Takes every call and answers none but those for "later" (a service waiting on a payment provider).
  service.subscribe(prefixed(prefix, subject), {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { userId: string } }>();
      if (packet.data.userId === 'later')
        msg.respond(JSON.stringify({ id: packet.id, response: { email: 'later@example.com' }, isDisposed: true }));
    },
  });
  await service.flush();
  rpc = await RpcClient.connect({ natsUrl: nats.url, prefix, timeoutMs: 1000, name: 'bus-lost-test' });
}, 60_000);

afterAll(async () => {
  await rpc?.close().catch(() => undefined);
  await service?.close().catch(() => undefined);
  await nats?.close();
});

describe('RpcClient when the message bus goes away', () => {
  it('answers the calls on their way UNAVAILABLE at once, whatever their deadline, and the next ones too', async () => {
    const sent = performance.now();
    const calls = [20_000, 1000].map((deadline, i) =>
      rpc.send(subject, { userId: `waiting-${i}` }, deadline).then(
        () => ({ ms: performance.now() - sent, outcome: 'answered' as unknown }),
        (error: unknown) => ({ ms: performance.now() - sent, outcome: error }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = performance.now();
    await nats.stopServer();
    const settled = await Promise.all(calls);
    for (const { outcome } of settled) expect(outcome).toMatchObject({ code: 'UNAVAILABLE', detail: 'the message bus is not reachable' });
    // Both within moments of the stop: the long one did not wait for its 20 s, nor the short one for its second.
    expect(Math.max(...settled.map((s) => s.ms)) - (stopped - sent)).toBeLessThan(900);
    const next = performance.now();
    await expect(rpc.send(subject, { userId: 'after' }, 20_000)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(performance.now() - next).toBeLessThan(500);

    // Back: the client and the service reconnect, and a call is answered again.
    await nats.startServer();
    const deadline = Date.now() + 15_000;
    let answer: unknown;
    while (answer === undefined && Date.now() < deadline) {
      answer = await rpc.send(subject, { userId: 'later' }, 300).catch(() => undefined);
      if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toEqual({ email: 'later@example.com' });
  }, 60_000);
});
