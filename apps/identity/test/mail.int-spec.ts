import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { SUBJECTS } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { startLoopbackSmtp, TestPlatform, uniqueEmail, type LoopbackSmtp } from '@tinkerdesk/testing';
import { Queue } from 'bullmq';
import { MAIL_QUEUE_NAME } from '../src/mail/mail-queue.js';

let platform: TestPlatform;
/** A real SMTP server on loopback receives what the identity service sends. */
let smtp: LoopbackSmtp;

/** The newest message to `to` whose decoded text matches `pattern`. */
const waitForMail = (to: string, pattern: RegExp = /./): Promise<string> => smtp.mailTo(to, pattern);

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

const email = uniqueEmail;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'gateway'], {
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://tinkerdesk.test',
    MAIL_RETRY_DELAY_MS: '100',
  });
}, 90_000);

afterEach(() => {
  smtp.beforeTaking = () => undefined;
});

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

describe('email verification', () => {
  it('sign-up itself sends the verification email, without waiting for it', async () => {
    const address = email('signup');
    const created = await call('POST', '/v1/users', { email: address, password: 'verify me please' });
    expect(created.status).toBe(201);
    const mail = await waitForMail(address, /\/v1\/account\/verify\?token=/);
    const link = /http:\/\/tinkerdesk\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect((await call('GET', link!)).location).toBe('/account?verified=1');
    expect((await call('GET', '/v1/users/me', undefined, created.body.token as string)).body).toMatchObject({ verified: true });
  });

  it('sends a link that verifies the account once', async () => {
    const address = email('ver');
    const created = await call('POST', '/v1/users', { email: address, password: 'verify me please' });
    const { guid } = created.body.profile as { guid: string };
    const token = created.body.token as string;

    const other = await call('POST', '/v1/users', { email: email('oth'), password: 'someone else' });
    // Another account's guid answers 404, exactly like an unknown one.
    const theirs = await call('POST', `/v1/users/${guid}/requestverification`, undefined, other.body.token as string);
    const unknown = await call(
      'POST',
      '/v1/users/6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40/requestverification',
      undefined,
      other.body.token as string,
    );
    expect(theirs).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
    expect(theirs.body).toEqual(unknown.body);
    expect((await call('POST', `/v1/users/${guid}/logout`, undefined, other.body.token as string)).body).toEqual(unknown.body);
    expect((await call('POST', `/v1/users/${guid}/requestverification`)).status).toBe(401);

    const asked = await call('POST', `/v1/users/${guid}/requestverification`, undefined, token);
    expect(asked.body).toEqual({ success: true, sent: true });
    const mail = await waitForMail(address);
    expect(mail).toContain('Subject: Confirm your email address for Tinkerdesk');
    const link = /http:\/\/tinkerdesk\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect(link).toBeDefined();

    const followed = await call('GET', link!);
    expect(followed.status).toBe(303);
    expect(followed.location).toBe('/account?verified=1');
    expect((await call('GET', '/v1/users/me', undefined, token)).body).toMatchObject({ verified: true });

    const again = await call('GET', link!);
    expect(again.location).toBe('/account?verified=invalid');
    expect((await call('POST', `/v1/users/${guid}/requestverification`, undefined, token)).body).toEqual({ success: true, sent: false });
    expect(await call('POST', '/v1/account/verify', { token: 'forged' })).toMatchObject({ status: 410, body: { error: 'LINK_INVALID' } });
  });
});

describe('password reset', () => {
  it('answers the same for unknown accounts and sends nothing', async () => {
    const ghost = email('ghost');
    const unknown = await call('POST', '/v1/account/resetpassword/setup', { email: ghost });
    expect(unknown).toMatchObject({ status: 200, body: { success: true } });
    await new Promise((r) => setTimeout(r, 300));
    // (Mail of earlier tests may still arrive from the queue: only this address counts.)
    expect(smtp.inbox.filter((m) => m.to.includes(ghost))).toEqual([]);
    expect((await call('POST', '/v1/account/resetpassword/setup', { email: 'not an email' })).status).toBe(400);
  });

  it('resets with the emailed single-use link and ends every session', async () => {
    const address = email('rst');
    const created = await call('POST', '/v1/users', { email: address, password: 'old password 1' });
    const second = await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'old password 1' });
    const setup = await call('POST', '/v1/account/resetpassword/setup', { email: address.toUpperCase() });
    expect(setup).toMatchObject({ status: 200, body: { success: true } });
    const mail = await waitForMail(address, /\/login#!\/reset\//);
    const resetToken = /\/login#!\/reset\/([A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect(resetToken).toBeDefined();

    // The page checks the link when it opens: usable now, without using it.
    expect(await call('POST', '/v1/account/resetpassword/check', { token: resetToken })).toEqual({ status: 200, body: { success: true } });
    expect(await call('POST', '/v1/account/resetpassword/check', { token: resetToken })).toEqual({ status: 200, body: { success: true } });
    expect((await call('POST', '/v1/account/resetpassword', { token: resetToken, password: 'short' })).status).toBe(400);
    const done = await call('POST', '/v1/account/resetpassword', { token: resetToken, password: 'new password 2' });
    expect(done).toMatchObject({ status: 200, body: { success: true } });

    for (const t of [created.body.token, second.body.token]) {
      expect(await call('GET', '/v1/users/me', undefined, t as string)).toMatchObject({ status: 401, body: { error: 'INVALID_TOKEN' } });
    }
    expect((await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'old password 1' })).status).toBe(401);
    expect((await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'new password 2' })).status).toBe(200);
    const reused = await call('POST', '/v1/account/resetpassword', { token: resetToken, password: 'third password 3' });
    expect(reused).toMatchObject({ status: 410, body: { error: 'LINK_INVALID' } });
    // A used link is reported as soon as the page opens, and a session token is never mistaken for one.
    expect(await call('POST', '/v1/account/resetpassword/check', { token: resetToken })).toMatchObject({
      status: 410,
      body: { error: 'LINK_INVALID', detail: 'this reset link is not valid: it was used already or has expired' },
    });
  });

  it('refuses an expired link and changes nothing', async () => {
    const address = email('exp');
    await call('POST', '/v1/users', { email: address, password: 'keep this one' });
    await call('POST', '/v1/account/resetpassword/setup', { email: address });
    const token = /\/login#!\/reset\/([A-Za-z0-9_-]{43})/.exec(await waitForMail(address, /\/login#!\/reset\//))?.[1];
    await platform.query(
      `UPDATE identity.action_token SET expires_at = now() - interval '1 minute'
       WHERE user_id = (SELECT id FROM identity.user WHERE email = $1)`,
      [address],
    );
    expect(await call('POST', '/v1/account/resetpassword/check', { token })).toMatchObject({
      status: 410,
      body: { error: 'LINK_INVALID' },
    });
    expect(await call('POST', '/v1/account/resetpassword', { token, password: 'never applied' })).toMatchObject({
      status: 410,
      body: { error: 'LINK_INVALID' },
    });
    expect((await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'keep this one' })).status).toBe(200);
  });
});

describe('mail goes out through a queue, after the answer', () => {
  const RESET = /\/login#!\/reset\//;

  it('answers a reset request exactly alike for an existing and an unknown email; the mail still arrives', async () => {
    const address = email('alike');
    expect((await call('POST', '/v1/users', { email: address, password: 'an existing account' })).status).toBe(201);
    const known = await call('POST', '/v1/account/resetpassword/setup', { email: address });
    const unknown = await call('POST', '/v1/account/resetpassword/setup', { email: email('unknown') });
    expect(known).toEqual({ status: 200, body: { success: true } });
    expect(unknown).toEqual(known);
    expect(await waitForMail(address, RESET)).toContain('Subject: Reset your Tinkerdesk password');
  });

  it('answers before a slow mail server has taken the message', async () => {
    const address = email('slow');
    await call('POST', '/v1/users', { email: address, password: 'a slow mail server' });
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    smtp.beforeTaking = (to, text) => (to.includes(address) && RESET.test(text) ? held : undefined);
    // Without a queue the answer would wait for the server: the timer would release it first.
    const timer = setTimeout(() => (order.push('released by the timer'), release()), 8000);
    const answer = await call('POST', '/v1/account/resetpassword/setup', { email: address });
    order.push('answered');
    release();
    clearTimeout(timer);
    expect(answer).toEqual({ status: 200, body: { success: true } });
    expect(order).toEqual(['answered']);
    await waitForMail(address, RESET);
  });

  it('retries with backoff when the mail server fails, and logs each failed attempt', async () => {
    const address = email('flaky');
    await call('POST', '/v1/users', { email: address, password: 'a flaky mail server' });
    let refused = 0;
    smtp.beforeTaking = (to, text) => {
      if (to.includes(address) && RESET.test(text) && refused < 2) {
        refused += 1;
        throw new Error('try again later');
      }
    };
    expect(await call('POST', '/v1/account/resetpassword/setup', { email: address })).toEqual({ status: 200, body: { success: true } });
    const mail = await waitForMail(address, RESET);
    expect(refused).toBe(2);
    const link = /\/login#!\/reset\/([A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect((await call('POST', '/v1/account/resetpassword', { token: link, password: 'after two retries' })).status).toBe(200);
    const failures = platform
      .logs('identity')
      .split('\n')
      .filter((line) => line.includes('mail attempt failed'));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.join('\n')).not.toContain(link);
  });

  it('a SIGTERM while a mail is being sent: identity finishes sending it, then exits', async () => {
    const address = email('drain');
    await call('POST', '/v1/users', { email: address, password: 'stopping while sending' });
    let taken: () => void = () => undefined;
    const sending = new Promise<void>((r) => (taken = r));
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    smtp.beforeTaking = (to, text) => {
      if (!to.includes(address) || !RESET.test(text)) return undefined;
      taken();
      return held;
    };
    expect(await call('POST', '/v1/account/resetpassword/setup', { email: address })).toEqual({ status: 200, body: { success: true } });
    await sending;
    let exited = false;
    const stopped = platform.stopProcess('identity').then(() => (exited = true));
    await new Promise((r) => setTimeout(r, 1000));
    // The worker waits for the running job instead of dropping it (or leaving it to a retry).
    expect(exited).toBe(false);
    release();
    await stopped;
    expect(await waitForMail(address, RESET)).toContain('Subject: Reset your Tinkerdesk password');
    await platform.startProcess('identity');
  });
});

describe('mail other services send (identity.mail.send)', () => {
  let rpc: RpcClient;
  let queue: Queue;

  beforeAll(async () => {
    rpc = await RpcClient.connect({
      natsUrl: platform.env.NATS_URL ?? 'nats://localhost:4222',
      prefix: platform.env.NATS_PREFIX ?? '',
      timeoutMs: 10_000,
      name: 'mail-test',
    });
    queue = new Queue(MAIL_QUEUE_NAME, { connection: { url: platform.env.REDIS_URL }, prefix: platform.env.REDIS_PREFIX });
  });

  afterAll(async () => {
    await queue?.close();
    await rpc?.close();
  });

  const send = (to: string, text: string, key?: string) =>
    rpc.send(SUBJECTS.identity.mailSend, { to, subject: 'A receipt', text, ...(key === undefined ? {} : { key }) });
  const mailsTo = (to: string) => smtp.inbox.filter((m) => m.to.includes(to));
  /** Every job added so far has run (the requests were answered after their jobs were added). */
  const queueDrained = async () => {
    for (let i = 0; i < 400; i++) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the mail queue did not drain');
  };

  it('the same key twice: accepted twice, sent once', async () => {
    const to = email('keyed');
    expect(await send(to, 'first', 'order-1:buyer')).toEqual({ success: true });
    await waitForMail(to, /first/);
    expect(await send(to, 'second', 'order-1:buyer')).toEqual({ success: true });
    await queueDrained();
    expect(mailsTo(to)).toHaveLength(1);
  });

  it('the same key twenty times at once: every request accepted, one mail', async () => {
    const to = email('parallel');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(to, `copy ${i}`, `event-${to}:buyer`)));
    expect(answers).toEqual(Array(20).fill({ success: true }));
    await waitForMail(to);
    await queueDrained();
    expect(mailsTo(to)).toHaveLength(1);
  });

  it('different keys, and no key, are mails of their own', async () => {
    const to = email('distinct');
    await send(to, 'to the buyer', 'event-2:buyer');
    await send(to, 'to the seller', 'event-2:seller');
    await send(to, 'no key');
    await send(to, 'no key');
    await queueDrained();
    await waitForMail(to, /to the seller/);
    expect(mailsTo(to)).toHaveLength(4);
  });

  it('refuses a key longer than 200 characters', async () => {
    await expect(send(email('long'), 'text', 'k'.repeat(201))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('contact', () => {
  it('stores the question and emails it to support with the sender as Reply-To', async () => {
    const sender = email('asker');
    const res = await call('POST', '/v1/contact', { name: 'Ivy', email: sender, question: 'Can I pay by invoice?' });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const mail = await waitForMail('support@tinkerdesk.dev');
    expect(mail).toContain(`Reply-To: ${sender}`);
    expect(mail).toContain('Subject: Contact: question from Ivy');
    expect(mail).toContain('Can I pay by invoice?');
  });
});
