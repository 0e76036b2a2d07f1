import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mailedResetToken, mailedToken, ROOT, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gateways remember session checks (SESSION_CACHE_TTL_MS) and the profiles `me` answered
 * (PROFILE_CACHE_TTL_MS), 30 s here as by default, and identity's announcements reach every replica at
 * once: a token logged out, or ended by a password reset, through one gateway stops working on the very
 * next call through another, and a profile changed through one is answered changed by the other.
 */
let platform: TestPlatform;
let second: ChildProcess;
let secondUrl: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tinkerdesk-session-cache-'));
  platform = await TestPlatform.start(['identity', 'gateway'], {
    DATA_DIR: dataDir,
    RATE_LIMIT_FACTOR: '1000',
    SESSION_CACHE_TTL_MS: '30000',
    PROFILE_CACHE_TTL_MS: '30000',
  });
  second = spawn(process.execPath, [join(ROOT, 'apps/gateway/dist/main.js')], {
    env: platform.env,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  secondUrl = await new Promise<string>((resolve, reject) => {
    second.on('message', (m: { type?: string; url?: string }) => m.type === 'ready' && m.url && resolve(m.url));
    second.once('exit', (code) => reject(new Error(`the second gateway exited (${code})`)));
  });
}, 90_000);

afterAll(async () => {
  second?.kill('SIGTERM');
  await platform?.close();
});

async function me(base: string, token: string): Promise<number> {
  return (await fetch(`${base}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function profile(base: string, token: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${base}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
}

const resetToken = (address: string) => mailedResetToken(dataDir, address);

describe('session checks cached by each gateway', () => {
  it('a logout through one replica ends the token on the very next call through the other', async () => {
    const created = await platform.call('POST', '/v1/users', { email: uniqueEmail('cache'), password: 'cached sessions' });
    const token = created.body.token as string;
    const guid = (created.body.profile as { guid: string }).guid;
    // Both replicas have checked (and remembered) the token.
    expect(await me(platform.url, token)).toBe(200);
    expect(await me(secondUrl, token)).toBe(200);
    const out = await fetch(`${platform.url}/v1/users/${guid}/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    expect(await me(secondUrl, token)).toBe(401);
    expect(await me(platform.url, token)).toBe(401);
  });

  it('a password reset through one replica ends every session of the account on the other', async () => {
    const address = uniqueEmail('reset-cache');
    const first = (await platform.call('POST', '/v1/users', { email: address, password: 'before the reset' })).body.token as string;
    const other = (await platform.call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'before the reset' })).body
      .token as string;
    expect(await me(secondUrl, first)).toBe(200);
    expect(await me(secondUrl, other)).toBe(200);
    await platform.call('POST', '/v1/account/resetpassword/setup', { email: address });
    const token = await resetToken(address);
    expect(await platform.call('POST', '/v1/account/resetpassword', { token, password: 'after the reset' })).toMatchObject({ status: 200 });
    expect(await me(secondUrl, first)).toBe(401);
    expect(await me(secondUrl, other)).toBe(401);
  });

  it('a profile changed through one replica is answered changed by the other at once', async () => {
    const created = await platform.call('POST', '/v1/users', { email: uniqueEmail('profile-cache'), password: 'cached profiles' });
    const token = created.body.token as string;
    // Both replicas remember the profile.
    expect(await profile(platform.url, token)).toMatchObject({ name: '', tz: expect.any(String) });
    expect(await profile(secondUrl, token)).toMatchObject({ name: '' });
    const saved = await fetch(`${platform.url}/v1/users/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace', tz: 'Europe/London' }),
    });
    expect(saved.status).toBe(200);
    expect(await profile(secondUrl, token)).toMatchObject({ name: 'Ada Lovelace', tz: 'Europe/London' });
    expect(await profile(platform.url, token)).toMatchObject({ name: 'Ada Lovelace', tz: 'Europe/London' });
  });

  it('an email verified by its link shows as verified through every replica at once', async () => {
    const address = uniqueEmail('verify-cache');
    const token = (await platform.call('POST', '/v1/users', { email: address, password: 'verify me please' })).body.token as string;
    expect(await profile(secondUrl, token)).toMatchObject({ verified: false });
    expect(await profile(platform.url, token)).toMatchObject({ verified: false });
    const guid = ((await profile(platform.url, token)).guid as string) ?? '';
    const asked = await fetch(`${platform.url}/v1/users/${guid}/requestverification`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asked.status).toBe(200);
    const link = await mailedToken(dataDir, address, /\/v1\/account\/verify\?token=([A-Za-z0-9_-]{43})/);
    expect(await platform.call('POST', '/v1/account/verify', { token: link })).toMatchObject({ status: 200 });
    expect(await profile(secondUrl, token)).toMatchObject({ verified: true });
    expect(await profile(platform.url, token)).toMatchObject({ verified: true });
  });
});
