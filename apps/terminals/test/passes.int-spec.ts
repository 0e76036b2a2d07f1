import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fetchAnswer, pngBomb, testPicture, TestPlatform, uniqueEmail, type FetchOptions } from '@tinkerdesk/testing';
import { unzipSync } from 'fflate';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import sharp from 'sharp';

/**
 * Wallet passes through the real gateway, identity and terminals services: saving (201 new, 200
 * replaced) with images checked, resized and served publicly; paging and every sort; refusals (bad
 * images, decompression bombs, oversize files, bad JSON, another account's ids, non-UUIDs); the Google
 * save link verified with the public half of a service account key made here; the Apple .pkpass
 * unzipped, its manifest checked against every file and its signature verified by openssl against a
 * CA made here standing in for Apple's WWDR.
 */
const run = promisify(execFile);
const OPENSSL = '/usr/bin/openssl';
const PUBLIC_URL = 'https://passes.tinkerdesk.test';
const ISSUER_ID = '3388000000022222222';
const SERVICE_ACCOUNT_EMAIL = 'wallet@tinkerdesk-test.iam.gserviceaccount.com';

let platform: TestPlatform;
let dir: string;
let googlePublicKey: KeyObject;

const http = (method: string, path: string, options: FetchOptions = {}) => fetchAnswer(platform.url, method, path, options);

async function account(tag: string): Promise<string> {
  const created = await platform.call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'passes password 1' });
  expect(created.status).toBe(201);
  return created.body.token as string;
}

const FIELDS = {
  cardTitle: 'Corner Café',
  header: 'Loyalty card',
  subheader: 'Member',
  textRows: [
    { header: 'Name', body: 'Ada Lovelace' },
    { header: 'Points', body: '120' },
  ],
  barcode: { type: 'qrcode', value: 'MEMBER-0042', alternateText: '0042' },
  backgroundColor: '#1A73E8',
};

type Files = Partial<Record<'logo' | 'hero', Buffer>>;

function form(fields: unknown, files: Files = {}, extra: Record<string, string> = {}): FormData {
  const data = new FormData();
  data.set('pass', typeof fields === 'string' ? fields : JSON.stringify(fields));
  for (const [slot, bytes] of Object.entries(files)) data.set(slot, new Blob([new Uint8Array(bytes)]), `${slot}.png`);
  for (const [name, value] of Object.entries(extra)) data.set(name, value);
  return data;
}

const save = (token: string, id: string, fields: unknown, files: Files = {}, extra: Record<string, string> = {}) =>
  http('POST', `/v1/passes/${id}`, { token, form: form(fields, files, extra) });

const picture = testPicture;

async function imageRows(): Promise<number> {
  return (await platform.query<{ n: number }>(`SELECT count(*)::int AS n FROM "terminals"."pass_image"`))[0]!.n;
}

/** Fetches a pass image by the path of its public URL (PUBLIC_URL is not this test's gateway). */
const fetchImage = (url: string) => http('GET', new URL(url).pathname);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tinkerdesk-passes-'));
  // Google: a service account key like the JSON Google Cloud downloads.
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  googlePublicKey = google.publicKey;
  writeFileSync(
    join(dir, 'service-account.json'),
    JSON.stringify({
      type: 'service_account',
      project_id: 'tinkerdesk-test',
      private_key_id: 'test-key-1',
      private_key: google.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: SERVICE_ACCOUNT_EMAIL,
    }),
  );
  // Apple: a CA standing in for the WWDR intermediate, and a Pass Type ID certificate it signed (key encrypted).
  const o = (...args: string[]) => run(OPENSSL, args, { cwd: dir });
  await o(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Test WWDR CA',
  );
  await o(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'signer.key',
    '-out',
    'signer.csr',
    '-subj',
    '/UID=pass.dev.tinkerdesk.test/CN=Pass Type ID/OU=ABCDE12345',
  );
  await o('x509', '-req', '-in', 'signer.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '2');
  await o('pkey', '-in', 'signer.key', '-aes256', '-passout', 'pass:correct horse', '-out', 'signer-encrypted.key');
  platform = await TestPlatform.start(['identity', 'terminals', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL,
    PASS_IMAGE_SWEEP_SECONDS: '1',
    GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
    GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: join(dir, 'service-account.json'),
    APPLE_PASS_TYPE_ID: 'pass.dev.tinkerdesk.test',
    APPLE_TEAM_ID: 'ABCDE12345',
    APPLE_PASS_CERT_FILE: join(dir, 'signer.pem'),
    APPLE_PASS_KEY_FILE: join(dir, 'signer-encrypted.key'),
    APPLE_PASS_KEY_PASSPHRASE: 'correct horse',
    APPLE_WWDR_CERT_FILE: join(dir, 'ca.pem'),
  });
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

describe('saving, reading and deleting passes', () => {
  it('creates (201) with images resized and served publicly, replaces (200), drops an image, deletes (204, then 404)', async () => {
    const token = await account('pass-owner');
    const id = randomUUID();
    const created = await save(token, id, FIELDS, { logo: await picture(800, 800, 'jpeg'), hero: await picture(2064, 600, 'webp') });
    expect(created.status).toBe(201);
    const pass = created.body.pass as Record<string, unknown> & { logo: { url: string }; hero: { url: string } };
    expect(pass).toEqual({
      id,
      cardTitle: 'Corner Café',
      header: 'Loyalty card',
      subheader: 'Member',
      textRows: FIELDS.textRows,
      barcode: FIELDS.barcode,
      backgroundColor: '#1a73e8',
      logo: {
        url: expect.stringMatching(/^https:\/\/passes\.tinkerdesk\.test\/v1\/passes\/images\/[0-9a-f]{64}\.png$/),
        width: 660,
        height: 660,
      },
      hero: { url: expect.stringMatching(/\/v1\/passes\/images\/[0-9a-f]{64}\.png$/), width: 1032, height: 300 },
      created: expect.any(String),
      modified: expect.any(String),
    });
    // Public, without a token: a PNG of that size, cached for good.
    const logo = await fetchImage(pass.logo.url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sharp(logo.bytes).metadata()).toMatchObject({ format: 'png', width: 660, height: 660 });
    expect(await http('GET', `/v1/passes/${id}`, { token })).toMatchObject({ status: 200, body: { success: true, pass } });

    // Replaced: new fields, images kept as stored when not sent.
    const replaced = await save(token, id, { ...FIELDS, header: 'Gold card', subheader: '', barcode: undefined });
    expect(replaced.status).toBe(200);
    expect(replaced.body.pass).toMatchObject({ id, header: 'Gold card', subheader: null, barcode: null, logo: pass.logo, hero: pass.hero });
    expect((replaced.body.pass as { created: string }).created).toBe(pass.created);

    // The hero dropped: its image goes at once (no other pass uses it).
    const dropped = await save(token, id, FIELDS, {}, { remove: 'hero' });
    expect(dropped).toMatchObject({ status: 200, body: { pass: { hero: null, logo: pass.logo } } });
    expect((await fetchImage(pass.hero.url)).status).toBe(404);
    // A new logo replaces the old one, which goes too.
    const relogo = await save(token, id, FIELDS, { logo: await picture(100, 50, 'gif') });
    expect(relogo.body.pass).toMatchObject({ logo: { width: 100, height: 50 } });
    expect((await fetchImage(pass.logo.url)).status).toBe(404);
    const newLogo = (relogo.body.pass as { logo: { url: string } }).logo.url;

    expect((await http('DELETE', `/v1/passes/${id}`, { token })).status).toBe(204);
    expect(await http('GET', `/v1/passes/${id}`, { token })).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
    expect((await http('DELETE', `/v1/passes/${id}`, { token })).status).toBe(404);
    expect((await fetchImage(newLogo)).status).toBe(404);
  });

  it('shares one stored image between passes of an account, and keeps it while one still uses it', async () => {
    const token = await account('pass-shared-image');
    const logo = await picture(64, 64);
    const [a, b] = [randomUUID(), randomUUID()];
    const first = await save(token, a, FIELDS, { logo });
    const second = await save(token, b, FIELDS, { logo });
    const url = (first.body.pass as { logo: { url: string } }).logo.url;
    expect((second.body.pass as { logo: { url: string } }).logo.url).toBe(url);
    expect((await http('DELETE', `/v1/passes/${a}`, { token })).status).toBe(204);
    expect((await fetchImage(url)).status).toBe(200);
    expect((await http('DELETE', `/v1/passes/${b}`, { token })).status).toBe(204);
    expect((await fetchImage(url)).status).toBe(404);
  });

  it('answers 404 for unknown images, public or not', async () => {
    expect((await http('GET', `/v1/passes/images/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await http('GET', '/v1/passes/images/not-an-image')).status).toBe(404);
  });
});

describe('listing', () => {
  it('pages with x-list-count, by every sort key in both directions, ties broken by id', async () => {
    const token = await account('pass-lister');
    const specs = [
      { cardTitle: 'Delta', header: 'beta' },
      { cardTitle: 'alpha', header: 'Echo' },
      { cardTitle: 'Charlie', header: 'alpha' },
      { cardTitle: 'Bravo', header: 'delta' },
      { cardTitle: 'Echo', header: 'Charlie' },
    ];
    const ids: string[] = [];
    for (const spec of specs) {
      const id = randomUUID();
      expect((await save(token, id, { ...FIELDS, ...spec })).status).toBe(201);
      ids.push(id);
    }
    // Modified order differs from created order: the first pass is touched last.
    expect((await save(token, ids[0]!, { ...FIELDS, ...specs[0] })).status).toBe(200);

    const all = async (query: string): Promise<string[]> => {
      const seen: string[] = [];
      for (let offset = 0; ; offset += 2) {
        const page = await http('GET', `/v1/passes/google?limit=2&offset=${offset}&${query}`, { token });
        expect(page.status).toBe(200);
        expect(page.headers.get('x-list-count')).toBe('5');
        expect(page.body).toMatchObject({ success: true, total: 5, offset, limit: 2 });
        const passes = page.body.passes as Array<{ id: string }>;
        if (passes.length === 0) return seen;
        seen.push(...passes.map((p) => p.id));
      }
    };
    const byIndex = (order: number[]) => order.map((i) => ids[i]!);
    const rows = (await platform.query<{ id: string; card_title: string; header: string }>(
      `SELECT "id", "card_title", "header" FROM "terminals"."pass" WHERE "id" = ANY($1::uuid[])`,
      [ids],
    )) as Array<{ id: string; card_title: string; header: string }>;
    // Text order is the database's collation: compute the expected order with it.
    const sorted = async (column: 'card_title' | 'header') =>
      (
        await platform.query<{ id: string }>(
          `SELECT "id" FROM "terminals"."pass" WHERE "id" = ANY($1::uuid[]) ORDER BY "${column}", "id"`,
          [ids],
        )
      ).map((r) => r.id);
    expect(rows).toHaveLength(5);

    expect(await all('')).toEqual(byIndex([4, 3, 2, 1, 0]));
    expect(await all('sort=created&dir=ASC')).toEqual(byIndex([0, 1, 2, 3, 4]));
    expect(await all('sort=created&dir=DESC')).toEqual(byIndex([4, 3, 2, 1, 0]));
    expect(await all('sort=modified&dir=ASC')).toEqual(byIndex([1, 2, 3, 4, 0]));
    expect(await all('sort=modified&dir=desc')).toEqual(byIndex([0, 4, 3, 2, 1]));
    const titles = await sorted('card_title');
    expect(await all('sort=cardTitle&dir=ASC')).toEqual(titles);
    expect(await all('sort=cardTitle&dir=DESC')).toEqual([...titles].reverse());
    const headers = await sorted('header');
    expect(await all('sort=header&dir=ASC')).toEqual(headers);
    expect(await all('sort=header&dir=DESC')).toEqual([...headers].reverse());

    // Past the end: nothing, and still the total.
    const past = await http('GET', '/v1/passes/google?offset=10', { token });
    expect(past).toMatchObject({ status: 200, body: { passes: [], total: 5, offset: 10, limit: 20 } });
    expect(past.headers.get('x-list-count')).toBe('5');
    // Another account sees none of them.
    const other = await http('GET', '/v1/passes/google', { token: await account('pass-other-lister') });
    expect(other).toMatchObject({ status: 200, body: { passes: [], total: 0 } });
    expect(other.headers.get('x-list-count')).toBe('0');
  });

  it.each([
    ['limit=0', 'limit must be from 1 to 100'],
    ['limit=101', 'limit must be from 1 to 100'],
    ['offset=-1', 'offset must be 0 or more'],
    ['sort=title', 'sort must be one of: created, modified, cardTitle, header'],
    ['dir=UP', 'dir must be ASC or DESC'],
  ])('refuses %s with 400', async (query, detail) => {
    const answer = await http('GET', `/v1/passes/google?${query}`, { token: await account('pass-bad-list') });
    expect(answer).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED', detail: expect.stringContaining(detail) } });
  });

  it('needs a token', async () => {
    expect((await http('GET', '/v1/passes/google')).status).toBe(401);
  });
});

describe('refusals', () => {
  it.each([
    [
      'a text file named .png',
      () => Promise.resolve(Buffer.from('this is not an image at all\n')),
      400,
      /logo file is not a PNG, JPEG, WebP or GIF/,
    ],
    ['an SVG', () => Promise.resolve(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 400, /not a PNG, JPEG, WebP or GIF/],
    ['a truncated PNG', async () => (await picture(300, 300)).subarray(0, 120), 400, /could not be decoded/],
    ['a decompression bomb (30000 x 30000 declared)', () => Promise.resolve(pngBomb()), 400, /too large in pixels: at most 50 megapixels/],
  ])('refuses %s with a clear 400, and stores nothing', async (_what, make, status, detail) => {
    const token = await account('pass-bad-image');
    const id = randomUUID();
    const before = await imageRows();
    const answer = await save(token, id, FIELDS, { logo: await make() });
    expect(answer).toMatchObject({ status, body: { success: false, error: 'VALIDATION_FAILED', detail: expect.stringMatching(detail) } });
    expect((await http('GET', `/v1/passes/${id}`, { token })).status).toBe(404);
    expect(await imageRows()).toBe(before);
  });

  it('refuses a file over the upload limit with 413', async () => {
    const token = await account('pass-big-image');
    const answer = await save(token, randomUUID(), FIELDS, { hero: Buffer.alloc(11 * 1024 * 1024, 1) });
    expect(answer).toMatchObject({ status: 413, body: { success: false, error: 'PAYLOAD_TOO_LARGE' } });
  });

  it.each([
    ['not JSON', '{"cardTitle": ', 'MALFORMED_JSON', 'the field "pass" is not valid JSON'],
    ['a list', '[1, 2]', 'VALIDATION_FAILED', 'must be a JSON object'],
    ['an empty title', { ...FIELDS, cardTitle: '  ' }, 'VALIDATION_FAILED', 'cardTitle must not be empty'],
    ['a long header', { ...FIELDS, header: 'x'.repeat(61) }, 'VALIDATION_FAILED', 'header may have at most 60 characters'],
    [
      'eleven rows',
      { ...FIELDS, textRows: Array.from({ length: 11 }, () => ({ header: 'h', body: 'b' })) },
      'VALIDATION_FAILED',
      'at most 10 rows',
    ],
    ['a long row body', { ...FIELDS, textRows: [{ header: 'h', body: 'b'.repeat(201) }] }, 'VALIDATION_FAILED', 'at most 200 characters'],
    ['an unknown barcode', { ...FIELDS, barcode: { type: 'maxicode', value: '1' } }, 'VALIDATION_FAILED', 'barcode.type must be one of'],
    ['a colour name', { ...FIELDS, backgroundColor: 'blue' }, 'VALIDATION_FAILED', 'backgroundColor must be a colour #rrggbb'],
    ['an unknown field', { ...FIELDS, owner: 'me' }, 'VALIDATION_FAILED', 'owner should not exist'],
  ])('refuses %s in "pass"', async (_what, fields, error, detail) => {
    const answer = await save(await account('pass-bad-fields'), randomUUID(), fields);
    expect(answer).toMatchObject({ status: 400, body: { success: false, error, detail: expect.stringContaining(detail) } });
  });

  it('refuses a request without "pass", an image both sent and removed, and an unknown "remove"', async () => {
    const token = await account('pass-bad-form');
    const empty = new FormData();
    empty.set('remove', 'logo');
    expect(await http('POST', `/v1/passes/${randomUUID()}`, { token, form: empty })).toMatchObject({ status: 400 });
    expect(await save(token, randomUUID(), FIELDS, { logo: await picture(10, 10) }, { remove: 'logo' })).toMatchObject({
      status: 400,
      body: { detail: 'logo is both sent and removed: do one of them' },
    });
    expect(await save(token, randomUUID(), FIELDS, {}, { remove: 'banner' })).toMatchObject({ status: 400 });
  });

  it("answers another account's pass exactly like a missing one, everywhere, and leaves it untouched", async () => {
    const owner = await account('pass-victim');
    const intruder = await account('pass-intruder');
    const id = randomUUID();
    expect((await save(owner, id, FIELDS)).status).toBe(201);
    const missing = randomUUID();
    for (const target of [id, missing]) {
      for (const [method, path] of [
        ['GET', `/v1/passes/${target}`],
        ['DELETE', `/v1/passes/${target}`],
        ['GET', `/v1/passes/${target}/google`],
        ['GET', `/v1/passes/${target}/apple`],
      ] as const) {
        expect(await http(method, path, { token: intruder })).toMatchObject({
          status: 404,
          body: { success: false, error: 'NOT_FOUND', detail: 'no such pass' },
        });
      }
    }
    const taken = await save(intruder, id, { ...FIELDS, header: 'Mine now' });
    expect(taken).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', detail: 'no such pass' } });
    expect(await http('GET', `/v1/passes/${id}`, { token: owner })).toMatchObject({
      status: 200,
      body: { pass: { header: 'Loyalty card' } },
    });
  });

  it.each(['GET', 'POST', 'DELETE', 'GET google', 'GET apple'])('refuses a non-UUID id (%s) with 400', async (what) => {
    const token = await account('pass-bad-id');
    const [method, suffix] = what.split(' ') as [string, string | undefined];
    const path = `/v1/passes/not-a-uuid${suffix ? `/${suffix}` : ''}`;
    const answer = method === 'POST' ? await save(token, 'not-a-uuid', FIELDS) : await http(method, path, { token });
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: expect.stringContaining('id must be a pass id (UUID)') },
    });
  });

  it('removes images whose save never came, an hour after they were stored', async () => {
    const owner = await account('pass-orphan-owner');
    const id = randomUUID();
    expect((await save(owner, id, FIELDS)).status).toBe(201);
    // The image is stored before the save, which is then refused (another account's id): an orphan.
    const before = await imageRows();
    expect((await save(await account('pass-orphan-maker'), id, FIELDS, { logo: await picture(33, 33) })).status).toBe(404);
    expect(await imageRows()).toBe(before + 1);
    await platform.query(`UPDATE "terminals"."pass_image" SET "stored" = now() - interval '59 minutes'`);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await imageRows()).toBe(before + 1);
    await platform.query(`UPDATE "terminals"."pass_image" SET "stored" = now() - interval '61 minutes'`);
    const orphans = async () =>
      (
        await platform.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "terminals"."pass_image" i WHERE NOT EXISTS (SELECT 1 FROM "terminals"."pass" p WHERE p."logo_id" = i."id" OR p."hero_id" = i."id")`,
        )
      )[0]!.n;
    const deadline = Date.now() + 10_000;
    while ((await orphans()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await orphans()).toBe(0);
    // Referenced images stay whatever their age.
    expect(await imageRows()).toBe(before);
  });
});

/** The required fields and types of a GenericObject (Google Wallet REST reference, walletobjects v1). */
function checkGenericObjectSchema(object: Record<string, unknown>): void {
  const localized = (value: unknown) => {
    expect(value).toEqual({ defaultValue: { language: expect.any(String), value: expect.any(String) } });
  };
  for (const required of ['id', 'classId', 'cardTitle', 'header']) expect(object).toHaveProperty(required);
  expect(object.id).toMatch(/^\d+\.[\w.-]+$/);
  expect(object.classId).toMatch(/^\d+\.[\w.-]+$/);
  expect(['ACTIVE', 'COMPLETED', 'EXPIRED', 'INACTIVE', 'active', 'completed', 'expired', 'inactive']).toContain(object.state);
  localized(object.cardTitle);
  localized(object.header);
  if ('subheader' in object) localized(object.subheader);
  expect(object.hexBackgroundColor).toMatch(/^#[0-9a-f]{6}$/);
  for (const module of (object.textModulesData as unknown[] | undefined) ?? []) {
    expect(module).toEqual({ id: expect.any(String), header: expect.any(String), body: expect.any(String) });
  }
  if (object.barcode) {
    const barcode = object.barcode as Record<string, unknown>;
    expect([
      'AZTEC',
      'CODE_39',
      'CODE_128',
      'CODABAR',
      'DATA_MATRIX',
      'EAN_8',
      'EAN_13',
      'ITF_14',
      'PDF_417',
      'QR_CODE',
      'UPC_A',
      'TEXT_ONLY',
    ]).toContain(barcode.type);
    expect(typeof barcode.value).toBe('string');
    if ('alternateText' in barcode) expect(typeof barcode.alternateText).toBe('string');
  }
  for (const image of ['logo', 'heroImage']) {
    if (!(image in object)) continue;
    const value = object[image] as { sourceUri: { uri: string }; contentDescription: unknown };
    expect(value.sourceUri.uri).toMatch(/^https:\/\//);
    localized(value.contentDescription);
  }
  const known = new Set([
    'id',
    'classId',
    'state',
    'cardTitle',
    'header',
    'subheader',
    'textModulesData',
    'barcode',
    'hexBackgroundColor',
    'logo',
    'heroImage',
  ]);
  for (const key of Object.keys(object)) expect(known.has(key)).toBe(true);
}

describe('Google Wallet', () => {
  it('says which wallets are configured (public)', async () => {
    expect(await http('GET', '/v1/passes/wallets')).toMatchObject({
      status: 200,
      body: { success: true, google: { configured: true }, apple: { configured: true } },
    });
  });

  it('answers a save link whose JWT verifies with the public half of the key and carries the GenericObject', async () => {
    const token = await account('pass-google');
    const id = randomUUID();
    const created = await save(token, id, FIELDS, { logo: await picture(120, 120), hero: await picture(1032, 336) });
    const pass = created.body.pass as { logo: { url: string }; hero: { url: string } };
    const answer = await http('GET', `/v1/passes/${id}/google`, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, configured: true });
    expect(answer.body).not.toHaveProperty('missing');
    const saveUrl = answer.body.saveUrl as string;
    expect(saveUrl.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = saveUrl.slice('https://pay.google.com/gp/v/save/'.length);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1' });
    const { payload } = await jwtVerify(jwt, googlePublicKey, { algorithms: ['RS256'], audience: 'google', issuer: SERVICE_ACCOUNT_EMAIL });
    expect(payload.typ).toBe('savetowallet');
    expect(payload.origins).toEqual([PUBLIC_URL]);
    expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    const text = (value: string) => ({ defaultValue: { language: 'en-US', value } });
    const expected = {
      id: `${ISSUER_ID}.${id}`,
      classId: `${ISSUER_ID}.tinkerdesk_generic`,
      state: 'ACTIVE',
      cardTitle: text('Corner Café'),
      header: text('Loyalty card'),
      subheader: text('Member'),
      textModulesData: [
        { id: 'row1', header: 'Name', body: 'Ada Lovelace' },
        { id: 'row2', header: 'Points', body: '120' },
      ],
      barcode: { type: 'QR_CODE', value: 'MEMBER-0042', alternateText: '0042' },
      hexBackgroundColor: '#1a73e8',
      logo: { sourceUri: { uri: pass.logo.url }, contentDescription: text('Corner Café logo') },
      heroImage: { sourceUri: { uri: pass.hero.url }, contentDescription: text('Loyalty card') },
    };
    const claims = payload as unknown as { payload: { genericClasses: unknown[]; genericObjects: Array<Record<string, unknown>> } };
    expect(claims.payload).toEqual({ genericClasses: [{ id: `${ISSUER_ID}.tinkerdesk_generic` }], genericObjects: [expected] });
    checkGenericObjectSchema(claims.payload.genericObjects[0]!);
    // The same JSON is in the answer for the tool's export.
    expect(answer.body.genericObject).toEqual(expected);
    expect(answer.body.genericClass).toEqual({ id: `${ISSUER_ID}.tinkerdesk_generic` });
    expect(decodeJwt(jwt).aud).toBe('google');
  });
});

describe('Apple Wallet', () => {
  it('answers a signed .pkpass: manifest hashes match every file and openssl verifies the signature', async () => {
    const token = await account('pass-apple');
    const id = randomUUID();
    expect((await save(token, id, FIELDS, { logo: await picture(400, 200), hero: await picture(1032, 336) })).status).toBe(201);
    const answer = await http('GET', `/v1/passes/${id}/apple`, { token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="Corner Caf?.pkpass"; filename*=UTF-8''Corner%20Caf%C3%A9.pkpass`,
    );
    const files = unzipSync(new Uint8Array(answer.bytes));
    const names = Object.keys(files).sort();
    expect(names).toEqual(
      ['icon.png', 'icon@2x.png', 'logo.png', 'logo@2x.png', 'manifest.json', 'pass.json', 'signature', 'strip.png', 'strip@2x.png'].sort(),
    );
    const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(names.filter((n) => n !== 'manifest.json' && n !== 'signature'));
    for (const [name, hash] of Object.entries(manifest)) {
      expect(createHash('sha1').update(files[name]!).digest('hex')).toBe(hash);
    }
    const passJson = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as Record<string, unknown>;
    expect(passJson).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.dev.tinkerdesk.test',
      teamIdentifier: 'ABCDE12345',
      organizationName: 'Tinkerdesk',
      serialNumber: id,
      description: 'Corner Café: Loyalty card (Member)',
      backgroundColor: 'rgb(26, 115, 232)',
      foregroundColor: 'rgb(0, 0, 0)',
      logoText: 'Corner Café',
      // With a hero image: a store card, the style on which Apple shows the strip.
      storeCard: {
        primaryFields: [{ key: 'header', label: 'Member', value: 'Loyalty card' }],
        secondaryFields: [
          { key: 'row1', label: 'Name', value: 'Ada Lovelace' },
          { key: 'row2', label: 'Points', value: '120' },
        ],
      },
      barcodes: [{ format: 'PKBarcodeFormatQR', message: 'MEMBER-0042', messageEncoding: 'iso-8859-1', altText: '0042' }],
    });
    expect(await sharp(Buffer.from(files['icon@2x.png']!)).metadata()).toMatchObject({ format: 'png', width: 58, height: 58 });
    expect(await sharp(Buffer.from(files['strip@2x.png']!)).metadata()).toMatchObject({ format: 'png', width: 750, height: 246 });
    // The detached PKCS#7 signature of manifest.json, by the signer certificate the CA issued.
    const out = mkdtempSync(join(dir, 'pkpass-'));
    writeFileSync(join(out, 'signature'), files.signature!);
    writeFileSync(join(out, 'manifest.json'), files['manifest.json']!);
    const verify = () =>
      run(
        OPENSSL,
        [
          'smime',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          'signature',
          '-content',
          'manifest.json',
          '-CAfile',
          join(dir, 'ca.pem'),
        ].concat(['-purpose', 'any']),
        { cwd: out },
      );
    expect((await verify()).stderr).toContain('Verification successful');
    // A manifest changed after signing does not verify.
    writeFileSync(join(out, 'manifest.json'), Buffer.concat([Buffer.from(files['manifest.json']!), Buffer.from(' ')]));
    await expect(verify()).rejects.toThrow();
  });

  it('makes the icon from the background colour without a logo', async () => {
    const token = await account('pass-apple-plain');
    const id = randomUUID();
    expect((await save(token, id, { ...FIELDS, barcode: undefined })).status).toBe(201);
    const answer = await http('GET', `/v1/passes/${id}/apple`, { token });
    expect(answer.status).toBe(200);
    const files = unzipSync(new Uint8Array(answer.bytes));
    expect(Object.keys(files).sort()).toEqual(['icon.png', 'icon@2x.png', 'manifest.json', 'pass.json', 'signature']);
    const passJson = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as Record<string, unknown>;
    expect(passJson).not.toHaveProperty('barcodes');
    // Without a hero: a generic pass.
    expect(passJson).toHaveProperty('generic.primaryFields');
    expect(passJson).not.toHaveProperty('storeCard');
  });

  it('refuses a barcode Apple Wallet does not show with 422 naming the ones it does', async () => {
    const token = await account('pass-apple-ean');
    const id = randomUUID();
    expect((await save(token, id, { ...FIELDS, barcode: { type: 'ean13', value: '9520123456788' } })).status).toBe(201);
    expect(await http('GET', `/v1/passes/${id}/apple`, { token })).toMatchObject({
      status: 422,
      body: {
        error: 'UNPROCESSABLE',
        detail: 'Apple Wallet does not show ean13 barcodes; it shows qrcode, pdf417, azteccode, code128',
      },
    });
  });
});
