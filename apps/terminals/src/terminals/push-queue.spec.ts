import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Logger } from '@tinkerdesk/nest-common';
import { DelayedError, type Job } from 'bullmq';
import type { PushResult, PushSender } from '../push/push-sender.js';
import { PUSH_OUTAGE_MAX_DELAY_MS, PushProcessor, type PushJob } from './push-queue.js';
import type { ShareRow, TerminalRow, TerminalsRepository } from './terminals.repository.js';

const SETTINGS = { attempts: 5, retryDelayMs: 500, ttlSeconds: 3600 };
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;

/** PostgreSQL gone: what node-postgres throws when the server ends the connection. */
const outage = () => new Error('Connection terminated unexpectedly');

function share(): ShareRow {
  return { id: randomUUID(), terminalId: randomUUID(), userId: randomUUID(), push: 'pending', created: new Date() } as ShareRow;
}

/** A job as the worker hands it over: its counts, and where moveToDelayed put it. */
function job(row: ShareRow, counts: { attemptsStarted: number; attemptsMade: number }) {
  const delayedTo: Array<{ at: number; token: string | undefined }> = [];
  const data: PushJob = {
    shareId: row.id,
    terminalId: row.terminalId,
    message: {
      title: 't',
      description: '',
      action: 'Open',
      contentType: 'text/plain',
      content: 'x',
      shareId: row.id,
      terminalId: row.terminalId,
    },
  };
  const fake = {
    data,
    opts: { attempts: SETTINGS.attempts },
    ...counts,
    updateData: (next: PushJob) => {
      fake.data = next;
      return Promise.resolve();
    },
    moveToDelayed: (at: number, token?: string) => {
      delayedTo.push({ at, token });
      return Promise.resolve();
    },
  };
  return { job: fake as unknown as Job<PushJob>, delayedTo };
}

function processor(repository: Partial<TerminalsRepository>, result: PushResult = { ok: true, status: 201 }) {
  const sent: string[] = [];
  const sender = {
    send: (_subscription: unknown, message: { shareId: string }) => {
      sent.push(message.shareId);
      return Promise.resolve(result);
    },
  } as unknown as PushSender;
  return { processor: new PushProcessor(sender, repository as TerminalsRepository, SETTINGS, silent), sent };
}

const subscribed = (row: ShareRow): TerminalRow =>
  ({
    id: row.terminalId,
    userId: row.userId,
    subscription: { endpoint: 'https://push.example/1', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } },
  }) as TerminalRow;

describe('PushProcessor across an outage of its database', () => {
  it('gives the job back, delayed, without using an attempt, when the share cannot be read', async () => {
    const row = share();
    const { processor: p, sent } = processor({ findShare: () => Promise.reject(outage()) });
    const { job: j, delayedTo } = job(row, { attemptsStarted: 7, attemptsMade: 0 });
    const before = Date.now();
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo).toHaveLength(1);
    expect(delayedTo[0]!.token).toBe('lock-token');
    // The seventh start, six given back before: 500 ms × 2^6, within the bound.
    const delay = delayedTo[0]!.at - before;
    expect(delay).toBeGreaterThanOrEqual(32_000 - 50);
    expect(delay).toBeLessThanOrEqual(PUSH_OUTAGE_MAX_DELAY_MS + 50);
    expect(sent).toEqual([]);
  });

  it('waits at most PUSH_OUTAGE_MAX_DELAY_MS however long the outage lasts', async () => {
    const row = share();
    const { processor: p } = processor({ findShare: () => Promise.reject(outage()) });
    const { job: j, delayedTo } = job(row, { attemptsStarted: 40, attemptsMade: 2 });
    const before = Date.now();
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo[0]!.at - before).toBeGreaterThanOrEqual(PUSH_OUTAGE_MAX_DELAY_MS - 50);
    expect(delayedTo[0]!.at - before).toBeLessThanOrEqual(PUSH_OUTAGE_MAX_DELAY_MS + 50);
  });

  it('a push sent whose mark met the outage is not sent again: the next try only writes `sent`', async () => {
    const row = share();
    let down = true;
    const marks: Array<[string, string | null]> = [];
    const { processor: p, sent } = processor({
      findShare: () => Promise.resolve(row),
      find: () => Promise.resolve(subscribed(row)),
      setPush: (_id, push, error) => {
        if (down) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
        marks.push([push, error]);
        return Promise.resolve();
      },
    });
    const { job: j, delayedTo } = job(row, { attemptsStarted: 1, attemptsMade: 0 });
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    expect(sent).toEqual([row.id]);
    expect(delayedTo).toHaveLength(1);
    expect(j.data.outcome).toEqual({ push: 'sent', error: null });
    // Still down at the second try: given back again, nothing sent.
    (j as unknown as { attemptsStarted: number }).attemptsStarted = 2;
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    down = false;
    (j as unknown as { attemptsStarted: number }).attemptsStarted = 3;
    await expect(p.process(j, 'lock-token')).resolves.toMatch(/^sent/);
    expect(sent).toEqual([row.id]);
    expect(marks).toEqual([['sent', null]]);
  });

  it('a final refusal whose mark met the outage is written after it (the share does not stay pending)', async () => {
    const row = share();
    let down = true;
    const marks: Array<[string, string | null]> = [];
    const { processor: p, sent } = processor(
      {
        findShare: () => Promise.resolve(row),
        find: () => Promise.resolve(subscribed(row)),
        setPush: (_id, push, error) => {
          if (down) return Promise.reject(outage());
          marks.push([push, error]);
          return Promise.resolve();
        },
      },
      { ok: false, gone: false, retry: true, status: 503, reason: 'the push service answered 503' },
    );
    // The last of SETTINGS.attempts tries.
    const { job: j, delayedTo } = job(row, { attemptsStarted: 5, attemptsMade: 4 });
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo).toHaveLength(1);
    expect(j.data.outcome).toEqual({ push: 'failed', error: 'the push service answered 503' });
    down = false;
    (j as unknown as { attemptsStarted: number }).attemptsStarted = 6;
    await expect(p.process(j, 'lock-token')).resolves.toMatch(/^failed/);
    expect(marks).toEqual([['failed', 'the push service answered 503']]);
    expect(sent).toEqual([row.id]);
  });

  it('a final refusal is written by the try itself when the database is up', async () => {
    const row = share();
    const marks: Array<[string, string | null]> = [];
    const { processor: p } = processor(
      {
        findShare: () => Promise.resolve(row),
        find: () => Promise.resolve(subscribed(row)),
        setPush: (_id, push, error) => {
          marks.push([push, error]);
          return Promise.resolve();
        },
      },
      { ok: false, gone: false, retry: false, status: 400, reason: 'the push service refused the message (400)' },
    );
    const { job: j, delayedTo } = job(row, { attemptsStarted: 1, attemptsMade: 0 });
    await expect(p.process(j, 'lock-token')).rejects.toThrow('the push service refused the message (400)');
    expect(delayedTo).toEqual([]);
    expect(marks).toEqual([['failed', 'the push service refused the message (400)']]);
  });

  it('the push service’s own failures still use up attempts (a plain error BullMQ counts)', async () => {
    const row = share();
    const { processor: p } = processor(
      { findShare: () => Promise.resolve(row), find: () => Promise.resolve(subscribed(row)) },
      { ok: false, gone: false, retry: true, status: 503, reason: 'the push service answered 503' },
    );
    const { job: j, delayedTo } = job(row, { attemptsStarted: 1, attemptsMade: 0 });
    const failure = await p.process(j, 'lock-token').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DelayedError);
    expect((failure as Error).message).toBe('the push service answered 503');
    expect(delayedTo).toEqual([]);
  });

  it('a bug (not an outage) is not given back', async () => {
    const row = share();
    const { processor: p } = processor({ findShare: () => Promise.reject(new TypeError('x is undefined')) });
    const { job: j, delayedTo } = job(row, { attemptsStarted: 1, attemptsMade: 0 });
    await expect(p.process(j, 'lock-token')).rejects.toBeInstanceOf(TypeError);
    expect(delayedTo).toEqual([]);
  });
});
