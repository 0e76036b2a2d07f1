import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { uniqueEmail } from '@tinkerdesk/testing';
import { startMediumGateway, type MediumGateway } from './medium.js';

let gateway: MediumGateway;

const call = (method: string, path: string, body?: unknown, token?: string) => gateway.call(method, path, body, token);

const email = uniqueEmail;

async function signUp(tag: string): Promise<{ email: string; guid: string; token: string }> {
  const address = email(tag);
  const res = await call('POST', '/v1/users', { email: address, password: 'password for codes' });
  return { email: address, guid: (res.body.profile as { guid: string }).guid, token: res.body.token as string };
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, ['apps/identity/dist/cli.js', ...args], { env: gateway.env, encoding: 'utf8' });
}

beforeAll(async () => {
  gateway = await startMediumGateway();
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe('impersonation and token swap codes', () => {
  it('an administrator (granted by the CLI) impersonates once; logout gives the administrator a session back', async () => {
    const admin = await signUp('admin');
    const target = await signUp('target');

    const before = await call('POST', '/v1/users/me/codes', { kind: 'impersonate', user: target.email }, admin.token);
    expect(before).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });

    const granted = cli('grant-admin', admin.email);
    expect(granted.status).toBe(0);
    expect(granted.stdout).toContain('is now an administrator');
    expect(cli('grant-admin', 'nobody@example.com').status).toBe(1);
    expect(cli('make-me-root').status).toBe(64);

    const minted = await call('POST', '/v1/users/me/codes', { kind: 'impersonate', user: target.email }, admin.token);
    expect(minted.status).toBe(201);
    const code = minted.body.code as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const exchanged = await call('POST', `/v1/codes/${code}/exchange`);
    expect(exchanged).toMatchObject({ status: 200, body: { success: true, profile: { guid: target.guid } } });
    expect(await call('POST', `/v1/codes/${code}/exchange`)).toMatchObject({ status: 410, body: { error: 'LINK_INVALID' } });

    const asTarget = exchanged.body.token as string;
    expect((await call('GET', '/v1/users/me', undefined, asTarget)).body).toMatchObject({ guid: target.guid });
    const out = await call('POST', `/v1/users/${target.guid}/logout`, undefined, asTarget);
    expect(out).toMatchObject({ status: 200, body: { success: true, profile: { guid: admin.guid } } });
    expect((await call('GET', '/v1/users/me', undefined, out.body.token as string)).body).toMatchObject({ guid: admin.guid });
    expect((await call('GET', '/v1/users/me', undefined, asTarget)).status).toBe(401);
  });

  it('a user swaps a token for their own account only; codes expire', async () => {
    const user = await signUp('swap');
    const other = await signUp('other');
    expect((await call('POST', '/v1/users/me/codes', { kind: 'tokenswap', user: other.email }, user.token)).status).toBe(403);
    expect((await call('POST', '/v1/users/me/codes', { kind: 'steal' }, user.token)).status).toBe(400);
    expect((await call('POST', '/v1/users/me/codes', { kind: 'tokenswap' })).status).toBe(401);

    const minted = await call('POST', '/v1/users/me/codes', { kind: 'tokenswap' }, user.token);
    const swapped = await call('POST', `/v1/codes/${minted.body.code as string}/exchange`);
    expect(swapped).toMatchObject({ status: 200, body: { profile: { guid: user.guid } } });
    expect(await call('POST', `/v1/users/${user.guid}/logout`, undefined, swapped.body.token as string)).toEqual({
      status: 200,
      body: { success: true },
    });

    const late = await call('POST', '/v1/users/me/codes', { kind: 'tokenswap' }, user.token);
    await gateway.query(`UPDATE identity.exchange_code SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.guid]);
    expect(await call('POST', `/v1/codes/${late.body.code as string}/exchange`)).toMatchObject({
      status: 410,
      body: { error: 'LINK_INVALID' },
    });
  });
});
