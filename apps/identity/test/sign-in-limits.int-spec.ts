import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail, type RawAnswer } from '@tinkerdesk/testing';

/**
 * Sign-in limits: failures are counted per account and client address together (10 per 15 minutes),
 * before the password is checked, with a far higher ceiling per account. The gateway trusts
 * X-Forwarded-For only from the proxy named in TRUST_PROXY: here 127.0.0.2, a "proxy" these tests
 * play by connecting from that address; a connection from 127.0.0.1 is a client speaking for itself.
 */
let platform: TestPlatform;
const PROXY = '127.0.0.2';
const PASSWORD = 'the right password';

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'gateway'], { TRUST_PROXY: PROXY });
}, 90_000);

afterAll(async () => {
  await platform?.close();
});

async function signUp(tag: string): Promise<{ email: string; guid: string }> {
  const email = uniqueEmail(tag);
  const res = await platform.call('POST', '/v1/users', { email, password: PASSWORD });
  expect(res.status).toBe(201);
  return { email, guid: (res.body.profile as { guid: string }).guid };
}

/** A sign-in as a client at `address` behind the trusted proxy (with the browser's cookies, if any). */
function viaProxy(identifier: string, password: string, address: string, cookie?: string): Promise<RawAnswer> {
  return platform.request('POST', `/v1/users/${encodeURIComponent(identifier)}/signin`, {
    body: { password },
    localAddress: PROXY,
    headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
  });
}

/** The device cookie a sign-in set ("name=value"), checking how it is kept. */
function deviceCookie(answer: RawAnswer): string {
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('tdd_'));
  expect(set).toBeDefined();
  const parts = set!.split(';').map((p) => p.trim().toLowerCase());
  expect(parts).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/v1/users']));
  expect(parts.find((p) => p.startsWith('max-age='))).toBe(`max-age=${180 * 86_400}`);
  return set!.split(';')[0]!;
}

/** A sign-in straight from 127.0.0.1 (not a trusted proxy), with optional extra headers. */
function direct(identifier: string, password: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return platform.request('POST', `/v1/users/${encodeURIComponent(identifier)}/signin`, { body: { password }, headers });
}

function expectLimited(answer: RawAnswer): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ success: false, error: 'RATE_LIMITED' });
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

describe('the sign-in limit counts before the password is checked', () => {
  it('checks at most 10 of 40 parallel wrong passwords; the rest, and then the right one, answer 429', async () => {
    const owner = await signUp('race');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => viaProxy(owner.email, `wrong ${i}`, '203.0.113.1')));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    for (const limited of answers.filter((a) => a.status !== 401)) expectLimited(limited);
    expectLimited(await viaProxy(owner.email, PASSWORD, '203.0.113.1'));
  });

  it('counts the guid and the email (any letter case) of one account as one', async () => {
    const owner = await signUp('both');
    for (let i = 0; i < 5; i++) expect((await viaProxy(owner.guid, `wrong ${i}`, '203.0.113.2')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await viaProxy(owner.email.toUpperCase(), `wrong ${i}`, '203.0.113.2')).status).toBe(401);
    expectLimited(await viaProxy(owner.guid, PASSWORD, '203.0.113.2'));
    expectLimited(await viaProxy(owner.email, PASSWORD, '203.0.113.2'));
  });
});

describe('nobody else can lock an owner out', () => {
  it("a stranger's failures from another address do not stop the owner signing in", async () => {
    const owner = await signUp('owner');
    for (let i = 0; i < 30; i++) {
      const answer = await viaProxy(owner.email, `guess ${i}`, '198.51.100.66');
      if (i < 10) expect(answer.status).toBe(401);
      else expectLimited(answer);
    }
    expect((await viaProxy(owner.email, PASSWORD, '192.0.2.10')).status).toBe(200);
    expect((await viaProxy(owner.guid, PASSWORD, '192.0.2.10')).status).toBe(200);
  });

  it("neighbours' failures on up to 19 other accounts behind the owner's address (an office) do not count against the owner", async () => {
    const owner = await signUp('office');
    const office = '192.0.2.20';
    const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => viaProxy(uniqueEmail(`neighbour-${i}`), 'not theirs', office)));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect((await viaProxy(owner.email, 'a typo', office)).status).toBe(401);
    expect((await viaProxy(owner.email, PASSWORD, office)).status).toBe(200);
  });

  it('a success clears the failures of that account and address', async () => {
    const owner = await signUp('clear');
    for (let i = 0; i < 9; i++) expect((await viaProxy(owner.email, `wrong ${i}`, '192.0.2.30')).status).toBe(401);
    expect((await viaProxy(owner.email, PASSWORD, '192.0.2.30')).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await viaProxy(owner.email, `wrong again ${i}`, '192.0.2.30')).status).toBe(401);
    expect((await viaProxy(owner.email, PASSWORD, '192.0.2.30')).status).toBe(200);
  });
});

describe('X-Forwarded-For', () => {
  it('is ignored from a peer that is not a configured proxy: a forger cannot pin failures on the owner’s address', async () => {
    const owner = await signUp('forged');
    const ownerAddress = '192.0.2.40';
    // Ten failures from 127.0.0.1 claiming to be the owner's address: counted for 127.0.0.1.
    for (let i = 0; i < 10; i++) {
      expect((await direct(owner.email, `wrong ${i}`, { 'x-forwarded-for': ownerAddress })).status).toBe(401);
    }
    expectLimited(await direct(owner.email, PASSWORD, { 'x-forwarded-for': '192.0.2.41' }));
    expect((await viaProxy(owner.email, PASSWORD, ownerAddress)).status).toBe(200);
  });

  it('is honoured from the configured proxy: each client behind it is counted apart', async () => {
    const owner = await signUp('proxied');
    for (let i = 0; i < 10; i++) expect((await viaProxy(owner.email, `wrong ${i}`, '192.0.2.50')).status).toBe(401);
    expectLimited(await viaProxy(owner.email, PASSWORD, '192.0.2.50'));
    expect((await viaProxy(owner.email, PASSWORD, '192.0.2.51')).status).toBe(200);
    // The proxy's own address is not the client's: a direct call from 127.0.0.1 is counted apart too.
    expect((await direct(owner.email, PASSWORD)).status).toBe(200);
  });
});

describe('credential stuffing: one address, many accounts', () => {
  it('closes the address to browsers without a device cookie after failures on 20 accounts; the owner on a known device still gets in', async () => {
    const owner = await signUp('stuffed');
    const carrier = '198.51.100.200';
    // The owner signed in from this browser before (elsewhere): it holds a device cookie of the account.
    const before = await viaProxy(owner.email, PASSWORD, '192.0.2.90');
    expect(before.status).toBe(200);
    const cookie = deviceCookie(before);

    // The attacker behind the owner's carrier address tries leaked pairs on 20 accounts (some real, some not).
    const victims = await Promise.all(Array.from({ length: 5 }, (_, i) => signUp(`victim-${i}`)));
    const targets = [...victims.map((v) => v.email), ...Array.from({ length: 15 }, (_, i) => uniqueEmail(`leaked-${i}`))];
    const tries = await Promise.all(targets.map((email) => viaProxy(email, 'leaked password', carrier)));
    expect(tries.map((t) => t.status)).toEqual(targets.map(() => 401));

    // Now every browser without a device cookie of the account is refused from there, even with the right password…
    const refused = await viaProxy(victims[0]!.email, PASSWORD, carrier);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'RATE_LIMITED', detail: expect.stringContaining('from your network') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(59 * 60);
    expect((await viaProxy(owner.email, PASSWORD, carrier)).status).toBe(429);
    // …while the owner's known browser gets in, and the same account from another network too.
    const known = await viaProxy(owner.email, PASSWORD, carrier, cookie);
    expect(known.status).toBe(200);
    expect((await viaProxy(victims[0]!.email, PASSWORD, '192.0.2.91')).status).toBe(200);
  });

  it("a device cookie is worth nothing for another account, and a known device's own failures are bounded", async () => {
    const owner = await signUp('device-owner');
    const other = await signUp('device-other');
    const cookie = deviceCookie(await viaProxy(owner.email, PASSWORD, '192.0.2.100'));
    // The owner's cookie on the other account: an unknown browser, counted per account and address (10).
    for (let i = 0; i < 10; i++) expect((await viaProxy(other.email, `wrong ${i}`, '192.0.2.101', cookie)).status).toBe(401);
    expect((await viaProxy(other.email, PASSWORD, '192.0.2.101', cookie)).status).toBe(429);
    // On its own account the cookie has a budget of 10 failures in 15 minutes, wherever it is used.
    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => viaProxy(owner.email, `guess ${i}`, `192.0.2.${110 + i}`, cookie)),
    );
    expect(guesses.filter((g) => g.status === 401).length).toBeLessThanOrEqual(10);
    expect(guesses.filter((g) => g.status === 429).length).toBeGreaterThanOrEqual(15);
    expect((await viaProxy(owner.email, PASSWORD, '192.0.2.150', cookie)).status).toBe(429);
    // A forged or foreign cookie value is an unknown browser's.
    expect(
      (await viaProxy(owner.email, PASSWORD, '192.0.2.151', 'tdd_0123456789abcdef=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status,
    ).toBe(200);
  });
});
