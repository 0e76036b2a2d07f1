import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LiveStreamReader, newAccount, ROOT, TestPlatform } from '@tinkerdesk/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * The live stream behind two gateway replicas on one NATS and one Redis: a stream read through one
 * resumes through the other with Last-Event-ID, and the per-account limit counts the streams of both;
 * a replica killed without a word gives its slots back once their lease (three heartbeats) runs out.
 */
let platform: TestPlatform;
let second: ChildProcess | undefined;
let secondUrl: string;
const open: LiveStreamReader[] = [];

async function startSecond(): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'apps/gateway/dist/main.js')], {
    env: platform.env,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  second = child;
  secondUrl = await new Promise<string>((resolve, reject) => {
    child.on('message', (m: { type?: string; url?: string }) => m.type === 'ready' && m.url && resolve(m.url));
    child.once('exit', (code) => reject(new Error(`the second gateway exited (${code})`)));
  });
}

async function stream(base: string, token: string, lastEventId?: string): Promise<LiveStreamReader> {
  const opened = await LiveStreamReader.open(base, token, lastEventId);
  expect(opened.status).toBe(200);
  open.push(opened.stream!);
  return opened.stream!;
}

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'terminals', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    OUTBOX_POLL_MS: '200',
    LIVE_STREAMS_PER_USER: '2',
    LIVE_HEARTBEAT_MS: '400',
  });
  await startSecond();
}, 120_000);

afterAll(async () => {
  for (const s of open) s.close();
  second?.kill('SIGTERM');
  await platform?.close();
});

const TERMINAL = { label: 'Desk', send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false };

describe('live streams across gateway replicas', () => {
  it('a stream read through one replica resumes through the other with Last-Event-ID', async () => {
    const alice = await newAccount(platform, 'replica-alice');
    const first = await stream(platform.url, alice.token);
    const desk = await platform.call('POST', '/v1/terminals', TERMINAL, alice.token);
    expect(desk.status).toBe(201);
    const seen = await first.event('terminal.registered');
    first.close();
    const phone = await platform.call('POST', '/v1/terminals', { ...TERMINAL, label: 'Phone' }, alice.token);
    const phoneId = (phone.body.terminal as { id: string }).id;
    const resumed = await stream(secondUrl, alice.token, seen.id);
    expect((await resumed.event('terminal.registered', { terminalId: phoneId })).id).not.toBe(seen.id);
    expect(resumed.events().map((e) => e.ids.terminalId)).toEqual([phoneId]);
    resumed.close();
  });

  it('counts an account’s streams on both replicas against one limit, and frees a slot when a stream ends', async () => {
    const bob = await newAccount(platform, 'replica-bob');
    const one = await stream(platform.url, bob.token);
    await stream(secondUrl, bob.token);
    for (const base of [platform.url, secondUrl])
      expect(await LiveStreamReader.open(base, bob.token)).toMatchObject({ status: 429, body: { success: false, error: 'RATE_LIMITED' } });
    one.close();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const tried = await LiveStreamReader.open(secondUrl, bob.token);
      if (tried.stream) open.push(tried.stream);
      status = tried.status;
    }
    expect(status).toBe(200);
  });

  it('gives back the slots of a replica killed without a word once their lease runs out', async () => {
    const carol = await newAccount(platform, 'replica-carol');
    const a = await stream(secondUrl, carol.token);
    const b = await stream(secondUrl, carol.token);
    expect((await LiveStreamReader.open(platform.url, carol.token)).status).toBe(429);
    const killed = second!;
    const exited = new Promise<void>((r) => killed.once('exit', () => r()));
    killed.kill('SIGKILL');
    await exited;
    second = undefined;
    await a.until(() => a.ended && b.ended);
    // Three heartbeats (1.2 s) later, the dead replica's leases have run out.
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const tried = await LiveStreamReader.open(platform.url, carol.token);
      if (tried.stream) open.push(tried.stream);
      status = tried.status;
    }
    expect(status).toBe(200);
    await startSecond();
  });
});
