import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Engines the platform really has (issue 32, "first run on a fresh machine"): a worker announces the
 * engines it found at start (in Redis, with a TTL, so a worker killed outright drops out by itself);
 * /v1/convert/formats and /v1/health show only what some live worker can do and name what is missing;
 * a job for a missing engine is refused at once with 503 ENGINE_UNAVAILABLE, never queued to fail.
 * The platform's own worker runs with SOFFICE_PATH pointing at nothing (a machine without LibreOffice);
 * a second, capable worker is started and killed by the test: in that mixed fleet, a document job the
 * worker without LibreOffice takes is given back for the other, and fails (announced at once to whoever
 * waits for it) only once no live worker announces LibreOffice. Announcements last 3 s here (15 s by default).
 */
const MISSING_SOFFICE = '/nonexistent/libreoffice/soffice';
let platform: TestPlatform;
let token: string;
let capable: ChildProcess | undefined;

interface Formats {
  formats: Array<{ id: string }>;
  engines: { workers: number; available: string[]; missing: string[] };
}

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'conversion', 'gateway'], {
    SOFFICE_PATH: MISSING_SOFFICE,
    RATE_LIMIT_FACTOR: '1000',
    CONVERSION_JOBS_PER_MINUTE: '1000',
    ENGINE_ANNOUNCEMENT_TTL_MS: '3000',
  });
  await platform.startProcess('conversion-worker');
  token = (await platform.call('POST', '/v1/users', { email: uniqueEmail('engines'), password: 'converting things' })).body.token as string;
}, 120_000);

afterAll(async () => {
  capable?.kill('SIGKILL');
  await platform?.close();
});

async function formats(): Promise<Formats> {
  const { status, body } = await platform.call('GET', '/v1/convert/formats', undefined, token);
  expect(status).toBe(200);
  return body as unknown as Formats;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, patienceMs = 30_000): Promise<T> {
  const until = Date.now() + patienceMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not so within ${patienceMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function upload(
  name: string,
  to: string,
  bytes: Uint8Array<ArrayBuffer> = new TextEncoder().encode('a document whose engine matters more than its bytes'),
): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([bytes]), name);
  form.set('to', to);
  return fetch(`${platform.url}/v1/convert/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
}

const uploadDocx = (name: string): Promise<Response> => upload(name, 'pdf');

interface Job {
  id: string;
  state: string;
  error?: string;
}

async function queued(res: Response): Promise<Job> {
  expect(res.status).toBe(202);
  return ((await res.json()) as { job: Job }).job;
}

/** The job once it has finished (completed, failed...). */
function finished(id: string): Promise<Job> {
  return eventually(
    async () => (await platform.call('GET', `/v1/convert/jobs/${id}`, undefined, token)).body.job as Job,
    (j) => !['queued', 'active'].includes(j.state),
    90_000,
  );
}

async function result(id: string): Promise<Uint8Array<ArrayBuffer>> {
  const res = await fetch(`${platform.url}/v1/convert/jobs/${id}/result`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** A second worker with LibreOffice where it really is (the platform's own has none); resolves once it is ready. */
function startCapableWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [resolve(ROOT, 'apps/conversion/dist/worker.js')], {
    env: { ...platform.env, SOFFICE_PATH: '/usr/bin/soffice' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let logs = '';
  child.stderr?.on('data', (d: Buffer) => (logs += d.toString()));
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`the capable worker was not ready within 30 s:\n${logs}`)), 30_000);
    child.on('message', (m: { type?: string }) => {
      if (m.type !== 'ready') return;
      clearTimeout(timer);
      ready(child);
    });
    child.once('exit', (code) => fail(new Error(`the capable worker exited (${code}):\n${logs}`)));
  });
}

describe('a worker without LibreOffice', () => {
  it('says so in its log, naming the setting', () => {
    expect(platform.logs('conversion-worker')).toContain(`LibreOffice's soffice is not at ${MISSING_SOFFICE} (SOFFICE_PATH)`);
    expect(platform.logs('conversion-worker')).toMatch(/"missing":\["libreoffice"\]/);
  });

  it('leaves documents, spreadsheets and presentations out of the formats, and names the engine', async () => {
    const answer = await formats();
    const ids = answer.formats.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['png', 'pdf', 'url']));
    for (const id of ['docx', 'odt', 'xlsx', 'csv', 'pptx']) expect(ids).not.toContain(id);
    expect(answer.engines).toEqual({ workers: 1, available: ['images', 'pdf-pages', 'chromium'], missing: ['libreoffice'] });
  });

  it('makes /v1/health degraded and name the missing engine', async () => {
    const { body } = await platform.call('GET', '/v1/health');
    expect(body).toMatchObject({ status: 'degraded', engines: { missing: ['libreoffice'] } });
    expect(body.services).toMatchObject({ conversion: { status: 'up' } });
  });

  it('refuses a DOCX job at once with 503 ENGINE_UNAVAILABLE naming LibreOffice, and queues nothing', async () => {
    const started = performance.now();
    const res = await uploadDocx('report.docx');
    const ms = Math.round(performance.now() - started);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: string; detail: string };
    expect(body).toMatchObject({ success: false, error: 'ENGINE_UNAVAILABLE' });
    expect(body.detail).toMatch(/LibreOffice.*\(engine libreoffice\).*Word document \(docx\)/);
    console.log(`a job for a missing engine was refused in ${ms} ms`);
    expect(ms).toBeLessThan(2000);
    const list = await platform.call('GET', '/v1/convert/jobs', undefined, token);
    expect(list.body.total).toBe(0);
  });
});

describe('a mixed fleet: one worker without LibreOffice, one with it', () => {
  it('brings the document formats back, and every document job is done by the worker with LibreOffice, several at once, none failing', async () => {
    capable = await startCapableWorker();
    const back = await eventually(formats, (f) => f.formats.some((x) => x.id === 'docx'));
    expect(back.engines).toMatchObject({ workers: 2, missing: [] });
    expect((await platform.call('GET', '/v1/health')).body).toMatchObject({ engines: { missing: [] } });

    // A real DOCX, made by the fleet itself from text.
    const made = await finished(
      (await queued(await upload('minutes.txt', 'docx', new TextEncoder().encode('Minutes\n\nThe fleet met.')))).id,
    );
    expect(made).toMatchObject({ state: 'completed' });
    const docx = await result(made.id);
    expect(new TextDecoder().decode(docx.subarray(0, 2))).toBe('PK');

    const started = performance.now();
    const jobs = await Promise.all(Array.from({ length: 8 }, async (_, i) => queued(await upload(`report-${i}.docx`, 'pdf', docx))));
    const done = await Promise.all(jobs.map((j) => finished(j.id)));
    console.log(`8 DOCX jobs in a mixed fleet finished in ${Math.round(performance.now() - started)} ms`);
    for (const j of done) expect(j).toMatchObject({ state: 'completed' });
    for (const j of done) expect(new TextDecoder().decode((await result(j.id)).subarray(0, 5))).toBe('%PDF-');
    // The worker without LibreOffice took some of them, and gave them back rather than failing them.
    expect(platform.logs('conversion-worker')).toContain('conversion given back for a worker with its engine');
  }, 180_000);

  it('fails a document job admitted after the capable worker was killed once its announcement lapses, naming the engine, and a waiting request hears it at once', async () => {
    if (!capable) throw new Error('the capable worker did not start');
    // Killed outright: its announcement stays until its TTL passes, so a job is still admitted meanwhile;
    // the worker left gives it back until then, and fails it with the engine's name after.
    const killedAt = Date.now();
    capable.kill('SIGKILL');
    const job = await queued(await uploadDocx('late.docx'));
    const waited = performance.now();
    const { status, body } = await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=10`, undefined, token);
    const ms = Math.round(performance.now() - waited);
    console.log(
      `a job admitted after the kill failed, and its ?wait=10 answered, ${ms} ms into the wait (${Date.now() - killedAt} ms after the kill)`,
    );
    expect(status).toBe(200);
    expect(body.job).toMatchObject({ state: 'failed', error: expect.stringContaining('(engine libreoffice)') });
    expect(ms).toBeLessThan(6000); // the 3 s announcement and the last hand-over's delay, well under the 10 s wait

    const gone = await eventually(formats, (f) => !f.formats.some((x) => x.id === 'docx'));
    console.log(`a killed worker's engines left the formats after ${Date.now() - killedAt} ms`);
    expect(gone.engines).toEqual({ workers: 1, available: ['images', 'pdf-pages', 'chromium'], missing: ['libreoffice'] });
  }, 60_000);
});
