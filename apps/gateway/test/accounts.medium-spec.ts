import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@tinkerdesk/testing';
import { startMediumGateway, type MediumGateway } from './medium.js';

let gateway: MediumGateway;

const call = (method: string, path: string, body?: unknown, token?: string) => gateway.call(method, path, body, token);

const email = uniqueEmail;

beforeAll(async () => {
  // These tests sign up far more than the per-address and per-email limits of sign-up allow from one
  // address (20 sign-ups with one email in the race test): lift them. The limits have their own tests
  // (mail-limits.medium-spec.ts).
  gateway = await startMediumGateway({ RATE_LIMIT_FACTOR: '100' });
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe('sign-up and sign-in', () => {
  it('signs up, answers like sign-in, and stores only hashes', async () => {
    const address = email('ada');
    const res = await call('POST', '/v1/users', { email: address, password: 'correct horse battery' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      verified: false,
      profile: { email: address, verified: false, active: true, tz: 'UTC' },
    });
    const token = res.body.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await gateway.query<{ password_hash: string; token_hash: string }>(
      'SELECT u.password_hash, s.token_hash FROM identity.user u JOIN identity.session s ON s.user_id = u.id WHERE u.email = $1',
      [address],
    );
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(token);
  });

  it('refuses a taken email whatever its case, with the conflict key', async () => {
    const address = email('bob');
    expect((await call('POST', '/v1/users', { email: address, password: 'password one' })).status).toBe(201);
    const again = await call('POST', '/v1/users', { email: address.toUpperCase(), password: 'password two' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      error: 'EMAIL_IN_USE',
      detail: 'this email address is already in use',
      key: 'error_email_in_use_internal',
    });
  });

  it('creates exactly one account under 20 concurrent sign-ups with one email', async () => {
    const address = email('race');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/v1/users', { email: i % 2 ? address : address.toUpperCase(), password: 'same password' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const rows = await gateway.query<{ n: string }>('SELECT count(*) AS n FROM identity.user WHERE lower(email) = lower($1)', [address]);
    expect(rows[0]?.n).toBe('1');
  });

  it('signs in with the email or the guid; wrong password and unknown account answer alike', async () => {
    const address = email('cy');
    const created = await call('POST', '/v1/users', { email: address, password: 'open sesame 1' });
    const guid = (created.body.profile as { guid: string }).guid;
    const byEmail = await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: 'open sesame 1' });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toMatchObject({ success: true, verified: false, profile: { guid, email: address } });
    const byGuid = await call('POST', `/v1/users/${guid}/signin`, { password: 'open sesame 1' });
    expect(byGuid.status).toBe(200);
    const wrong = await call('POST', `/v1/users/${guid}/signin`, { password: 'open sesame 2' });
    const unknown = await call('POST', `/v1/users/${encodeURIComponent(email('nobody'))}/signin`, { password: 'open sesame 1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('rejects malformed input with 400 and writes nothing', async () => {
    // The database is shared with the other medium tests: count only the addresses this test sends.
    const addresses = [email('x'), email('y')];
    for (const body of [
      {},
      { email: 'not-an-email', password: 'long enough' },
      { email: addresses[0], password: 'short' },
      { email: addresses[1], password: 'long enough', admin: true },
    ]) {
      const res = await call('POST', '/v1/users', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_FAILED' });
    }
    expect((await call('POST', '/v1/users/x/signin', {})).status).toBe(400);
    const written = await gateway.query<{ n: string }>(
      `SELECT count(*) AS n FROM identity.user WHERE lower(email) = ANY($1) OR email = 'not-an-email'`,
      [addresses],
    );
    expect(written[0]?.n).toBe('0');
  });
});

describe('sessions and profile', () => {
  it('reads and updates the profile, validating the time zone', async () => {
    const created = await call('POST', '/v1/users', { email: email('dee'), password: 'password dee' });
    const token = created.body.token as string;
    const me = await call('GET', '/v1/users/me?include=services', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, guid: (created.body.profile as { guid: string }).guid });
    const updated = await call('POST', '/v1/users/me', { name: 'Dee Dee', tz: 'Europe/Paris' }, token);
    expect(updated.body).toMatchObject({ success: true, name: 'Dee Dee', tz: 'Europe/Paris' });
    const badTz = await call('POST', '/v1/users/me', { tz: 'Mars/Olympus' }, token);
    expect(badTz.status).toBe(400);
    expect(badTz.body).toMatchObject({ error: 'VALIDATION_FAILED', detail: expect.stringContaining('IANA') });
  });

  it('refuses missing and forged tokens', async () => {
    expect(await call('GET', '/v1/users/me')).toMatchObject({ status: 401, body: { success: false, error: 'UNAUTHORIZED' } });
    expect(await call('GET', '/v1/users/me', undefined, 'forged-token-value')).toMatchObject({
      status: 401,
      body: { success: false, error: 'INVALID_TOKEN' },
    });
  });

  it("logs out at once, and only the session's own user may", async () => {
    const a = await call('POST', '/v1/users', { email: email('eve'), password: 'password eve' });
    const b = await call('POST', '/v1/users', { email: email('fay'), password: 'password fay' });
    const aGuid = (a.body.profile as { guid: string }).guid;
    const other = await call('POST', `/v1/users/${aGuid}/logout`, undefined, b.body.token as string);
    expect(other).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } }); // as for an unknown guid
    expect((await call('GET', '/v1/users/me', undefined, a.body.token as string)).status).toBe(200);
    const out = await call('POST', `/v1/users/${aGuid}/logout`, undefined, a.body.token as string);
    expect(out).toEqual({ status: 200, body: { success: true } });
    expect(await call('GET', '/v1/users/me', undefined, a.body.token as string)).toMatchObject({
      status: 401,
      body: { error: 'INVALID_TOKEN' },
    });
  });

  it('shows a public profile without the email', async () => {
    const created = await call('POST', '/v1/users', { email: email('gus'), password: 'password gus' });
    const guid = (created.body.profile as { guid: string }).guid;
    const res = await call('GET', `/v1/users/${guid}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('@example.com');
    expect((await call('GET', '/v1/users/not-a-uuid')).status).toBe(400);
    expect((await call('GET', '/v1/users/3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11')).status).toBe(404);
  });
});

describe('contact', () => {
  it('stores a question and validates the fields', async () => {
    const ok = await gateway.http
      .post('/v1/contact')
      .send({ name: 'Hal', email: email('hal'), question: 'Can I export my data?' })
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(ok.body).toMatchObject({ success: true });
    const rows = await gateway.query<{ question: string }>('SELECT question FROM identity.contact_message WHERE id = $1', [ok.body.id]);
    expect(rows[0]?.question).toBe('Can I export my data?');
    const bad = await gateway.http.post('/v1/contact').send({ name: 'Hal', email: 'nope', question: '' }).expect(400);
    expect(bad.body).toMatchObject({ success: false, error: 'VALIDATION_FAILED' });
  });
});

describe('sign-in rate limit', () => {
  it('limits repeated failures per account (429 RATE_LIMITED), even with the right password', async () => {
    const address = email('lim');
    await call('POST', '/v1/users', { email: address, password: 'the right one' });
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', `/v1/users/${encodeURIComponent(address)}/signin`, { password: `wrong ${i}` })).status).toBe(401);
    }
    const limited = await gateway.request('POST', `/v1/users/${encodeURIComponent(address.toUpperCase())}/signin`, {
      body: { password: 'the right one' },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: 'RATE_LIMITED', detail: 'too many failed sign-ins; try again in 15 minutes' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });
});

describe('GET /v1/users/me?include=services', () => {
  it('adds the provider services kept by commerce, and only the caller’s', async () => {
    const mine = await call('POST', '/v1/users', { email: email('provider'), password: 'correct horse battery' });
    const other = await call('POST', '/v1/users', { email: email('other'), password: 'correct horse battery' });
    const token = mine.body.token as string;
    const guid = (mine.body.profile as { guid: string }).guid;
    const empty = await call('GET', '/v1/users/me?include=services', undefined, token);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ success: true, guid, services: [] });

    await gateway.query(
      `INSERT INTO commerce.service (id, user_id, name, display_name, provider, vendor, account, extras) VALUES
       (gen_random_uuid(), $1, 'Lessons', 'Ada Ltd', 'stripe', 'Ada Ltd', 'acct_1', '{"currency":"usd"}'),
       (gen_random_uuid(), $2, 'Not mine', 'Bob', 'stripe', 'Bob', 'acct_2', '{}')`,
      [guid, (other.body.profile as { guid: string }).guid],
    );
    const listed = await call('GET', '/v1/users/me?include=services', undefined, token);
    expect(listed.body.services).toEqual([
      expect.objectContaining({ name: 'Lessons', provider: 'stripe', vendor: 'Ada Ltd', account: 'acct_1', currency: 'usd' }),
    ]);
    // Without include the profile alone.
    expect((await call('GET', '/v1/users/me', undefined, token)).body).not.toHaveProperty('services');
  });

  it('refuses an unknown include, and a missing or forged token', async () => {
    const { body } = await call('POST', '/v1/users', { email: email('include'), password: 'correct horse battery' });
    const bad = await call('GET', '/v1/users/me?include=passwords', undefined, body.token as string);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: 'VALIDATION_FAILED' });
    expect((await call('GET', '/v1/users/me?include=services')).status).toBe(401);
    const forged = await call('GET', '/v1/users/me?include=services', undefined, 'A'.repeat(43));
    expect(forged.body).toMatchObject({ success: false, error: 'INVALID_TOKEN' });
  });
});
