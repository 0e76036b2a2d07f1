import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { committedFiles, findDrift, OPENAPI_FILE } from '../../scripts/api-contract.mjs';

const run = promisify(execFile);

/**
 * The committed API contract (answer schemas, /v1/openapi.json, the generated client's types) must be
 * what the contracts and the built gateway produce now: a route, a DTO or an answer type changed
 * without `npm run api:generate` fails here.
 */
describe('API contract drift', () => {
  it('the committed schemas, document and client types match what the gateway serves', async () => {
    const { stdout } = await run(process.execPath, ['scripts/api-contract.mjs', 'check'], { timeout: 60_000 });
    expect(stdout).toContain('match');
  });

  it('finds a route the committed document lacks, and a stale answer schema', async () => {
    const committed = committedFiles();
    const served = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, unknown> };
    expect(await findDrift(committed, served)).toEqual([]);

    const withNewRoute = { ...served, paths: { ...served.paths, '/v1/new-route': { get: { responses: { 200: { description: 'OK' } } } } } };
    const problems = await findDrift(committed, withNewRoute);
    expect(problems).toEqual([expect.stringContaining('openapi.json differs'), expect.stringContaining('schema.ts differs')]);

    const stale = { ...committed, responseSchemas: committed.responseSchemas.replace('"sent"', '"was_sent"') };
    expect(await findDrift(stale, served)).toEqual([expect.stringContaining('response-schemas.ts differs')]);
  });
});
