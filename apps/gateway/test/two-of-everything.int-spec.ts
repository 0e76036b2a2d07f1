import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LiveStreamReader, newAccount, openShop, saveSandboxCard, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The whole platform twice over (issue 32, "Two of everything"): two gateways, two of every service, two
 * conversion workers, as `npm start -- --replicas=2` runs it, and what must hold across replicas: a
 * session ended through one gateway is refused by the other at once, a profile changed through one is
 * answered changed by the other, a limit is counted across both, plan charges made due at once are
 * charged exactly once by the two commerce replicas, and the live stream delivers through either gateway.
 */
let platform: TestPlatform;
let first: string;
let second: string;

beforeAll(async () => {
  platform = await TestPlatform.start(
    ['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker', 'gateway'],
    {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tinkerdesk-two-of-everything-')),
      // The real limits (the sign-ups of this file stay under the 20 an address has an hour).
      RATE_LIMIT_FACTOR: '1',
      SESSION_CACHE_TTL_MS: '30000',
      PROFILE_CACHE_TTL_MS: '30000',
      PLAN_SWEEP_SECONDS: '5',
      PUBLIC_URL: 'http://shop.test',
      LOG_LEVEL: 'warn',
    },
    { replicas: 2 },
  );
  [first, second] = [platform.urlOf(0), platform.urlOf(1)];
}, 180_000);

afterAll(async () => {
  await platform?.close();
});

async function get(base: string, path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('two gateways, two of every service, two workers', () => {
  it('runs every process twice', () => {
    for (const name of ['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker', 'gateway'] as const)
      expect([platform.pidOf(name, 0), platform.pidOf(name, 1)].every((pid) => typeof pid === 'number')).toBe(true);
    expect(platform.urls).toEqual([first, second]);
  });

  it('a session ended through one gateway is refused by the other on the very next call', async () => {
    const alice = await newAccount(platform, 'two-logout');
    for (const base of [first, second]) expect((await get(base, '/v1/users/me', alice.token)).status).toBe(200);
    const out = await fetch(`${first}/v1/users/${alice.guid}/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(out.status).toBe(200);
    expect((await get(second, '/v1/users/me', alice.token)).status).toBe(401);
  });

  it('a profile changed through one gateway is answered changed by the other at once', async () => {
    const bob = await newAccount(platform, 'two-profile');
    for (const base of [first, second]) expect((await get(base, '/v1/users/me', bob.token)).body).toMatchObject({ name: '' });
    const saved = await fetch(`${second}/v1/users/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grace Hopper' }),
    });
    expect(saved.status).toBe(200);
    expect((await get(first, '/v1/users/me', bob.token)).body).toMatchObject({ name: 'Grace Hopper' });
  });

  it('counts a limit across both gateways: the fourth reset request for one address is refused by either', async () => {
    const email = uniqueEmail('two-limit');
    expect((await platform.call('POST', '/v1/users', { email, password: 'limited resets' })).status).toBe(201);
    const ask = (base: string) =>
      fetch(`${base}/v1/account/resetpassword/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    const statuses = [];
    for (const base of [first, second, first]) statuses.push((await ask(base)).status);
    expect(statuses).toEqual([200, 200, 200]);
    for (const base of [second, first]) {
      const refused = await ask(base);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    }
  });

  it('charges plans made due at once exactly once, with both commerce replicas sweeping and charging', async () => {
    const shop = await openShop(platform, {
      tag: 'two-plans',
      service: { name: 'Lessons', displayName: 'Lessons', provider: 'sandbox', vendor: 'digital', account: 'sandbox_two_plans' },
      product: { name: 'Lesson', price: 2500 },
    });
    const plans: Array<{ id: string; card: string }> = [];
    for (let i = 0; i < 6; i++) {
      const payer = await newAccount(platform, `two-payer-${i}`);
      const card = await saveSandboxCard(platform, payer.token);
      const created = await platform.call(
        'POST',
        '/v1/plans',
        {
          service: shop.serviceId,
          product: shop.productId,
          interval: 'month',
          reminderDay: -1,
          start: new Date(Date.now() + 2 * 86_400_000).toISOString(),
          timeZone: 'Europe/Berlin',
          paymentMethod: card.id,
        },
        payer.token,
      );
      expect(created.status).toBe(201);
      plans.push({ id: (created.body.plan as { id: string }).id, card: card.id });
    }
    const ids = plans.map((p) => p.id);
    // Instead of moving the replicas' clocks, the plans' time moves: two periods made due, one after the other.
    for (const period of [0, 1]) {
      await platform.query(`UPDATE "commerce"."plan" SET "next_charge_at" = now() - interval '1 second' WHERE "id" = ANY($1::uuid[])`, [
        ids,
      ]);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const paid = await platform.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "commerce"."plan_charge" WHERE "plan_id" = ANY($1::uuid[]) AND "period" = $2 AND "state" = 'paid'`,
          [ids, period],
        );
        if (paid[0]!.n === ids.length) break;
        if (Date.now() > deadline) throw new Error(`period ${period}: ${paid[0]!.n} of ${ids.length} plans charged`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    // Once per period: two charges of each plan, two paid sandbox charges on each card.
    const charges = await platform.query<{ plan_id: string; n: number }>(
      `SELECT "plan_id", count(*)::int AS n FROM "commerce"."plan_charge" WHERE "plan_id" = ANY($1::uuid[]) GROUP BY "plan_id"`,
      [ids],
    );
    expect(charges.map((c) => c.n)).toEqual(ids.map(() => 2));
    const onCards = await platform.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "commerce"."sandbox_charge" c JOIN "commerce"."payment_method" m ON m."ref" = c."card_id"
        WHERE m."id" = ANY($1::uuid[]) AND c."paid" GROUP BY m."id"`,
      [plans.map((p) => p.card)],
    );
    expect(onCards.map((c) => c.n)).toEqual(ids.map(() => 2));
  }, 120_000);

  it('delivers live events through either gateway, whichever gateway the change went through', async () => {
    const carol = await newAccount(platform, 'two-live');
    const streams = await Promise.all([first, second].map((base) => LiveStreamReader.open(base, carol.token)));
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const [onFirst, onSecond] = streams.map((s) => s.stream!);
    const terminal = { send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false };
    const made = await Promise.all(
      [second, first].map(async (base, i) => {
        const res = await fetch(`${base}/v1/terminals`, {
          method: 'POST',
          headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...terminal, label: `Desk ${i}` }),
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { terminal: { id: string } }).terminal.id;
      }),
    );
    for (const stream of [onFirst!, onSecond!]) for (const terminalId of made) await stream.event('terminal.registered', { terminalId });
    onFirst!.close();
    onSecond!.close();
  });
});
