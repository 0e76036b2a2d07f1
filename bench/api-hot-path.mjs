#!/usr/bin/env node
// The hot path, measured side by side in one run with the same tool (autocannon):
//   - GET /v1/users/me through the platform (gateway → NATS → identity → PostgreSQL: the session by
//     its token hash, then the user), with a real session token;
//   - a reference: a bare node:http server doing the same two PostgreSQL queries on the same
//     database (the floor a Node service on this machine can reach);
//   - a gateway-only route (GET /v1/health/live) for the gateway's own cost.
// Each gets a sequential run (2,000 requests one after another on a kept-alive connection: median
// latency) and a loaded run (autocannon, 50 connections: requests per second). Prints the figures and the two ratios the contracts issue asks for: the
// platform's median latency over the reference's (goal at most 1.5) and its throughput over the
// reference's (goal at least 0.6).
// Starts its own platform (identity and gateway) on a throwaway database. Builds nothing: run
// `npm run build` first. Usage: node bench/api-hot-path.mjs [--seconds=10]
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import { TestPlatform } from '../libs/testing/dist/index.js';
import { measure, printRows, ratios } from './lib/load.mjs';

const SECONDS = Number(process.argv.find((a) => a.startsWith('--seconds='))?.split('=')[1] ?? 10);

const platform = await TestPlatform.start(['identity', 'gateway'], { LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '1000' });
const { token } = (await platform.call('POST', '/v1/users', { email: `hot-${Date.now()}@example.com`, password: 'hot path benchmark' }))
  .body;

// The reference: the same two queries identity makes for `me`, on a pool of the same size.
const pool = new pg.Pool({ connectionString: platform.env.DATABASE_URL, max: 10 });
const reference = createServer(async (req, res) => {
  try {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const hash = createHash('sha256').update(bearer, 'utf8').digest('hex');
    const session = await pool.query(
      'SELECT id, user_id FROM identity.session WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > now() LIMIT 1',
      [hash],
    );
    if (session.rowCount === 0) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"error":"INVALID_TOKEN"}');
      return;
    }
    const user = await pool.query('SELECT id, email, name, tz, active, verified, context FROM identity."user" WHERE id = $1', [
      session.rows[0].user_id,
    ]);
    const u = user.rows[0];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        success: true,
        guid: u.id,
        email: u.email,
        name: u.name,
        tz: u.tz,
        active: u.active,
        verified: u.verified,
        context: u.context,
      }),
    );
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
await new Promise((resolve) => reference.listen(0, '127.0.0.1', resolve));
const referenceUrl = `http://127.0.0.1:${reference.address().port}`;

const auth = { seconds: SECONDS, headers: { authorization: `Bearer ${token}` } };

const results = [];
results.push(await measure('reference: node:http + pg, same two queries', `${referenceUrl}/v1/users/me`, auth));
results.push(await measure('platform: GET /v1/users/me', `${platform.url}/v1/users/me`, auth));
results.push(await measure('gateway only: GET /v1/health/live', `${platform.url}/v1/health/live`, auth));

reference.close();
await pool.end();
await platform.close();

await printRows('Hot path', SECONDS, results);
const [ref, me] = results;
console.log(`platform / reference: ${ratios(me, ref)}`);
