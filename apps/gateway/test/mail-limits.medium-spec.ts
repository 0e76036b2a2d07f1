import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail, type RawAnswer } from '@tinkerdesk/testing';
import { MAIL_LIMITS } from '../src/http/rate-limits.js';
import { startMediumGateway, type MediumGateway } from './medium.js';

/**
 * Every call that sends mail is limited per client address and per target (email or account), with
 * counters in Redis shared by every gateway replica. TRUST_PROXY is unset here, so every call comes
 * from 127.0.0.1 whatever X-Forwarded-For claims.
 */
let gateway: MediumGateway;

beforeAll(async () => {
  gateway = await startMediumGateway();
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

function expectLimited(answer: RawAnswer): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ success: false, error: 'RATE_LIMITED' });
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
}

/** A call with a different forged X-Forwarded-For each time (ignored: TRUST_PROXY is unset). */
let forged = 0;
function post(path: string, body: unknown, token?: string): Promise<RawAnswer> {
  forged += 1;
  const headers = { 'x-forwarded-for': `198.51.100.${forged % 250}` };
  return gateway.request('POST', path, { body, headers, ...(token ? { token } : {}) });
}

describe('password reset requests', () => {
  it('are limited per email, then per client address (a forged X-Forwarded-For changes nothing)', async () => {
    const target = uniqueEmail('victim');
    const { perTarget, perAddress } = MAIL_LIMITS.passwordReset;
    for (let i = 0; i < perTarget.points; i++) expect((await post('/v1/account/resetpassword/setup', { email: target })).status).toBe(200);
    expectLimited(await post('/v1/account/resetpassword/setup', { email: target.toUpperCase() }));
    for (let i = perTarget.points + 1; i < perAddress.points; i++) {
      expect((await post('/v1/account/resetpassword/setup', { email: uniqueEmail(`spray${i}`) })).status).toBe(200);
    }
    expectLimited(await post('/v1/account/resetpassword/setup', { email: uniqueEmail('one-more') }));
  });
});

describe('verification requests', () => {
  it('are limited per account', async () => {
    const created = await post('/v1/users', { email: uniqueEmail('verify'), password: 'password to verify' });
    const { guid } = created.body.profile as { guid: string };
    const token = created.body.token as string;
    for (let i = 0; i < MAIL_LIMITS.verification.perTarget.points; i++) {
      expect(await post(`/v1/users/${guid}/requestverification`, undefined, token)).toMatchObject({ status: 200, body: { sent: true } });
    }
    expectLimited(await post(`/v1/users/${guid}/requestverification`, undefined, token));
  });
});

describe('sign-ups', () => {
  it('are limited per email, then per client address', async () => {
    const { perTarget, perAddress } = MAIL_LIMITS.signUp;
    let used = 1; // the verification test signed up once from this address
    const email = uniqueEmail('twice');
    const statuses: number[] = [];
    for (let i = 0; i < perTarget.points; i++, used++) statuses.push((await post('/v1/users', { email, password: 'a password' })).status);
    expect(statuses).toEqual([201, ...Array.from({ length: perTarget.points - 1 }, () => 409)]);
    expectLimited(await post('/v1/users', { email: email.toUpperCase(), password: 'a password' }));
    used++;
    for (; used < perAddress.points; used++) {
      expect((await post('/v1/users', { email: uniqueEmail(`many${used}`), password: 'a password' })).status).toBe(201);
    }
    expectLimited(await post('/v1/users', { email: uniqueEmail('too-many'), password: 'a password' }));
  });
});

describe('contact questions', () => {
  it('are limited per email, then per client address', async () => {
    const { perTarget, perAddress } = MAIL_LIMITS.contact;
    const email = uniqueEmail('asker');
    const question = { name: 'Ivy', email, question: 'Can I pay by invoice?' };
    for (let i = 0; i < perTarget.points; i++) expect((await post('/v1/contact', question)).status).toBe(200);
    expectLimited(await post('/v1/contact', question));
    for (let i = perTarget.points + 1; i < perAddress.points; i++) {
      expect((await post('/v1/contact', { ...question, email: uniqueEmail(`asker${i}`) })).status).toBe(200);
    }
    expectLimited(await post('/v1/contact', { ...question, email: uniqueEmail('asker-last') }));
  });
});
