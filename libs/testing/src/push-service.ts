import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { TEST_VAPID } from './platform.js';

// web-push-testing: a push service for tests that speaks the Web Push protocol (checks VAPID, decrypts
// the aes128gcm payload) and keeps the messages per subscription. A CommonJS package without types.
const require = createRequire(import.meta.url);
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => { notifyUrl: string } };
const WebPushTestingServer = require('web-push-testing/src/server.js') as new (
  model: unknown,
  port: number,
) => { _server?: Server; startServer(): void };

/** A browser's Web Push subscription at the loopback push service (`clientHash` names it there). */
export interface PushSubscriptionAtService {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface LoopbackPushService {
  /** The port it listens on (localhost: the platform needs PUSH_ALLOWED_HOSTS=localhost). */
  port: number;
  /** A new subscription for the test VAPID key (what PushManager.subscribe gives a browser). */
  subscribe(): Promise<PushSubscriptionAtService>;
  /** The decrypted payloads the service took for a subscription, in arrival order. */
  messages(clientHash: string): Promise<string[]>;
  /** Makes the service answer 410 Gone to the subscription's next messages. */
  expire(clientHash: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts web-push-testing's push service on a free localhost port. The package keeps its model in a
 * module variable: one service per test process (a second one would take over the first's).
 */
export async function startLoopbackPush(): Promise<LoopbackPushService> {
  const model = new PushApiModel();
  const service = new WebPushTestingServer(model, 0);
  // It logs its port on start; 0 picks a free one, read back from its server.
  const originalLog = console.log;
  console.log = () => undefined;
  try {
    service.startServer();
  } finally {
    console.log = originalLog;
  }
  const server = service._server!;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  const port = (server.address() as AddressInfo).port;
  model.notifyUrl = `http://localhost:${port}/notify/`;

  const post = async <T>(path: string, body: unknown = {}): Promise<{ status: number; body: T }> => {
    const res = await fetch(`http://localhost:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : {}) as T };
  };

  return {
    port,
    async subscribe() {
      // The package wants the boolean as text.
      const answer = await post<{ data: PushSubscriptionAtService }>('/subscribe', {
        userVisibleOnly: 'true',
        applicationServerKey: TEST_VAPID.publicKey,
      });
      if (answer.status !== 200) throw new Error(`the push service refused a subscription: ${answer.status}`);
      return answer.body.data;
    },
    async messages(clientHash) {
      const answer = await post<{ data: { messages: string[] } }>('/get-notifications', { clientHash });
      if (answer.status !== 200) throw new Error(`the push service knows no subscription ${clientHash}: ${answer.status}`);
      return answer.body.data.messages;
    },
    async expire(clientHash) {
      return (await post(`/expire-subscription/${clientHash}`)).status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
