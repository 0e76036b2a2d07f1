import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newAccount, TestPlatform, type TestAccount as Account } from '@tinkerdesk/testing';

/**
 * Shop links (/s/{slug}) through the real gateway, identity and commerce: choosing, changing and
 * removing a slug, the rules (reserved words, characters, uniqueness), resolving it to the same public
 * page as the long link, and two sellers claiming one slug at the same moment.
 */
let platform: TestPlatform;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

const SERVICE = { name: 'Riso Corner', displayName: 'Riso Corner', provider: 'sandbox', vendor: 'digital', account: 'sandbox_riso' };

async function service(seller: Account, fields: Record<string, unknown> = {}): Promise<string> {
  const created = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, ...fields }, seller.token);
  expect(created.status).toBe(201);
  return (created.body.service as { id: string }).id;
}

const update = (seller: Account, id: string, fields: Record<string, unknown>) =>
  call('POST', `/v1/users/${seller.guid}/services/${id}`, { ...SERVICE, ...fields }, seller.token);

/** A slug no other test of this run uses. */
let counter = 0;
const fresh = (stem: string) => `${stem}-${Date.now().toString(36)}-${counter++}`;

const slugRows = (slug: string) =>
  platform.query<{ id: string; user_id: string }>('SELECT id, user_id FROM commerce.service WHERE lower(slug) = lower($1)', [slug]);

let seller: Account;
let rival: Account;

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { RATE_LIMIT_FACTOR: '1000', PUBLIC_URL: 'http://shop.test' });
  [seller, rival] = await Promise.all([newAccount(platform, 'slug-seller'), newAccount(platform, 'slug-rival')]);
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

describe('choosing a shop link', () => {
  it('sets a slug when creating a service; the short and the long link answer the same public page', async () => {
    const slug = fresh('riso-corner');
    const id = await service(seller, { slug });
    const short = await call('GET', `/v1/shops/${slug}`);
    const long = await call('GET', `/v1/users/${seller.guid}/services/${id}`);
    expect(short).toMatchObject({
      status: 200,
      body: { success: true, service: { id, name: 'Riso Corner' }, seller: { guid: seller.guid } },
    });
    expect(short.body).toEqual(long.body);
    expect(JSON.stringify(short.body)).not.toContain('sandbox_riso');
    // Links are typed by people: the case does not matter.
    expect(await call('GET', `/v1/shops/${slug.toUpperCase()}`)).toMatchObject({ status: 200, body: { service: { id } } });
    const me = await call('GET', '/v1/users/me?include=services', undefined, seller.token);
    expect((me.body.services as Array<{ id: string; slug: string | null }>).find((s) => s.id === id)?.slug).toBe(slug);
  });

  it('keeps the slug when an update leaves it out, frees the old one when it changes, removes it with null', async () => {
    const first = fresh('first');
    const second = fresh('second');
    const id = await service(seller, { slug: first });
    expect(await update(seller, id, { name: 'Renamed' })).toMatchObject({ status: 200, body: { service: { slug: first } } });
    expect(await update(seller, id, { slug: second })).toMatchObject({ status: 200, body: { service: { slug: second } } });
    expect(await call('GET', `/v1/shops/${first}`)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/shops/${second}`)).toMatchObject({ status: 200, body: { service: { id } } });
    // The old slug is anyone's at once (no redirect).
    const taken = await service(rival, { slug: first });
    expect(await call('GET', `/v1/shops/${first}`)).toMatchObject({ status: 200, body: { service: { id: taken } } });
    expect(await update(seller, id, { slug: null })).toMatchObject({ status: 200, body: { service: { slug: null } } });
    expect(await call('GET', `/v1/shops/${second}`)).toMatchObject({ status: 404 });
    expect(await slugRows(second)).toEqual([]);
  });

  it("refuses a slug another service holds with 409 CONFLICT, and leaves the other seller's shop alone", async () => {
    const slug = fresh('taken');
    const owner = await service(seller, { slug });
    expect(await call('POST', `/v1/users/${rival.guid}/services`, { ...SERVICE, slug }, rival.token)).toMatchObject({
      status: 409,
      body: { success: false, error: 'CONFLICT', detail: 'that shop link is taken' },
    });
    const mine = await service(rival);
    expect(await update(rival, mine, { slug })).toMatchObject({ status: 409, body: { detail: 'that shop link is taken' } });
    // Two services of one seller cannot share it either.
    expect(await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, slug }, seller.token)).toMatchObject({ status: 409 });
    expect(await slugRows(slug)).toEqual([{ id: owner, user_id: seller.guid }]);
  });

  it.each([
    ['a reserved word', 'admin', '“admin” is reserved'],
    ['the site’s own path', 'v1', 'a shop link needs 3 to 40 characters'],
    ['another reserved word', 'tinkerdesk', '“tinkerdesk” is reserved'],
    ['uppercase letters', 'Riso-Corner', 'lowercase letters only'],
    ['spaces', 'riso corner', 'only letters a–z, digits 0–9 and hyphens'],
    ['an underscore', 'riso_corner', 'only letters a–z, digits 0–9 and hyphens'],
    ['a slash', 'riso/corner', 'only letters a–z, digits 0–9 and hyphens'],
    ['a leading hyphen', '-riso', 'cannot start or end with a hyphen'],
    ['two hyphens', 'riso--corner', 'two hyphens in a row'],
    ['too few characters', 'ab', '3 to 40 characters'],
    ['too many characters', 'a'.repeat(41), '3 to 40 characters'],
    ['a number', 42, 'a shop link is text'],
  ])('refuses %s with the reason in plain words', async (_what, slug, reason) => {
    const answer = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, slug }, seller.token);
    expect(answer).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
    expect(answer.body.detail).toContain(reason);
  });

  it("answers another user's service like a missing one, and never takes the slug", async () => {
    const slug = fresh('stolen');
    const id = await service(seller);
    expect(await call('POST', `/v1/users/${rival.guid}/services/${id}`, { ...SERVICE, slug }, rival.token)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    expect(await call('POST', `/v1/users/${seller.guid}/services/${id}`, { ...SERVICE, slug }, rival.token)).toMatchObject({ status: 404 });
    expect(await slugRows(slug)).toEqual([]);
  });
});

describe('resolving a shop link', () => {
  it('answers 404 "no shop at this address" for an unknown slug, and for one that could never be a slug', async () => {
    for (const slug of [fresh('nobody'), 'admin', 'x', 'a'.repeat(150)])
      expect(await call('GET', `/v1/shops/${slug}`)).toMatchObject({
        status: 404,
        body: { success: false, error: 'NOT_FOUND', detail: 'no shop at this address' },
      });
  });

  it('keeps the old long link working for a service with a slug', async () => {
    const id = await service(seller, { slug: fresh('long-link') });
    expect(await call('GET', `/v1/users/${seller.guid}/services/${id}`)).toMatchObject({ status: 200, body: { service: { id } } });
  });
});

describe('two sellers claiming one slug at the same moment', () => {
  it('gives it to exactly one of them, twenty times over, with one row holding it', async () => {
    const [mine, theirs] = await Promise.all([service(seller), service(rival)]);
    for (let round = 0; round < 20; round++) {
      const slug = fresh('race');
      const answers = await Promise.all([update(seller, mine, { slug }), update(rival, theirs, { slug })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers[0].status === 200 ? { id: mine, user_id: seller.guid } : { id: theirs, user_id: rival.guid };
      expect(await slugRows(slug)).toEqual([winner]);
      const loser = answers.find((a) => a.status === 409);
      expect(loser?.body).toMatchObject({ error: 'CONFLICT', detail: 'that shop link is taken' });
    }
  });
});
