import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { TERMINALS_EVENTS, type TerminalsEventEnvelope } from '@tinkerdesk/contracts';
import type { TerminalsEventRecord } from '../events/terminals-events.js';
import { queuePush } from '../events/terminals-outbox.js';
import type { PushSender } from '../push/push-sender.js';
import type { PushJob } from './push-queue.js';
import type { ShareRow, TerminalRow, TerminalsRepository } from './terminals.repository.js';
import { TerminalsService } from './terminals.service.js';

const USER = randomUUID();

function terminalRow(fields: Partial<TerminalRow> = {}): TerminalRow {
  return {
    id: randomUUID(),
    userId: USER,
    label: 'Phone',
    send: true,
    receive: true,
    active: true,
    details: {},
    platform: 'Browser (mobile)',
    capabilities: ['push'],
    remote: false,
    destination: null,
    subscription: { endpoint: 'https://push.example/1', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } },
    inbox: 0,
    app: null,
    created: new Date(),
    modified: new Date(),
    ...fields,
  };
}

/** A repository faked in memory: what a share's transaction committed (the row and its events). */
function fakeRepository(terminals: TerminalRow[]) {
  const committed: Array<{ share: ShareRow; events: TerminalsEventRecord[] }> = [];
  const repository = {
    find: (id: string, userId: string) => Promise.resolve(terminals.find((t) => t.id === id && t.userId === userId) ?? null),
    insertShare: (row: Omit<ShareRow, 'created' | 'pushError'>, events: TerminalsEventRecord[] = []) => {
      const share: ShareRow = { ...row, created: new Date(), pushError: null };
      committed.push({ share, events });
      return Promise.resolve(share);
    },
  };
  // The service uses only the methods above in send().
  return { repository: repository as unknown as TerminalsRepository, committed };
}

const sender = (enabled: boolean) => ({ enabled }) as PushSender;

describe('TerminalsService.send', () => {
  it('commits the share with its terminals.share.created event carrying the push, and queues nothing itself', async () => {
    const from = terminalRow({ label: 'Laptop' });
    const target = terminalRow();
    const { repository, committed } = fakeRepository([from, target]);
    const view = await new TerminalsService(repository, sender(true)).send({
      userId: USER,
      terminalId: target.id,
      fromTerminalId: from.id,
      contentType: 'text/x-uri',
      content: 'https://example.com',
      description: ' Read this ',
    });
    expect(view).toMatchObject({ terminalId: target.id, push: 'pending', description: 'Read this' });
    expect(committed).toHaveLength(1);
    expect(committed[0]!.events).toEqual([
      {
        name: TERMINALS_EVENTS.shareCreated,
        aggregateType: 'share',
        aggregateId: view.id,
        payload: {
          share: { id: view.id, terminalId: target.id, userId: USER, fromTerminalId: from.id },
          push: {
            title: 'A link from Laptop',
            description: 'Read this',
            action: 'Open',
            contentType: 'text/x-uri',
            content: 'https://example.com',
            shareId: view.id,
            terminalId: target.id,
          },
        },
      },
    ]);
  });

  it('records the event without a push when the target has no subscription or push is off', async () => {
    const unsubscribed = terminalRow({ subscription: null });
    const { repository, committed } = fakeRepository([unsubscribed]);
    const view = await new TerminalsService(repository, sender(true)).send({
      userId: USER,
      terminalId: unsubscribed.id,
      contentType: 'text/plain',
      content: 'hi',
    });
    expect(view.push).toBe('none');
    const subscribed = terminalRow();
    const off = fakeRepository([subscribed]);
    expect(
      (
        await new TerminalsService(off.repository, sender(false)).send({
          userId: USER,
          terminalId: subscribed.id,
          contentType: 'text/plain',
          content: 'hi',
        })
      ).push,
    ).toBe('none');
    for (const { events } of [...committed, ...off.committed])
      expect(events.map((e) => ('push' in e.payload ? e.payload.push : undefined))).toEqual([null]);
  });
});

describe('the push listener (queuePush)', () => {
  const event = (push: boolean): TerminalsEventEnvelope<typeof TERMINALS_EVENTS.shareCreated> => {
    const share = { id: randomUUID(), terminalId: randomUUID(), userId: USER, fromTerminalId: null };
    return {
      id: randomUUID(),
      name: TERMINALS_EVENTS.shareCreated,
      aggregateType: 'share',
      aggregateId: share.id,
      createdAt: new Date().toISOString(),
      payload: {
        share,
        push: push
          ? {
              title: 'A note for you',
              description: 'hi',
              action: 'View',
              contentType: 'text/plain',
              content: 'hi',
              shareId: share.id,
              terminalId: share.terminalId,
            }
          : null,
      },
    };
  };

  it('queues the delivery of a share with a push, keyed by the share (its id is the job’s)', async () => {
    const jobs: PushJob[] = [];
    const queue = { enqueue: (job: PushJob) => Promise.resolve(void jobs.push(job)) };
    const created = event(true);
    await queuePush(created, queue);
    expect(jobs).toEqual([
      { shareId: created.payload.share.id, terminalId: created.payload.share.terminalId, message: created.payload.push },
    ]);
  });

  it('queues nothing for a share without a push', async () => {
    const jobs: PushJob[] = [];
    await queuePush(event(false), { enqueue: (job: PushJob) => Promise.resolve(void jobs.push(job)) });
    expect(jobs).toEqual([]);
  });
});
