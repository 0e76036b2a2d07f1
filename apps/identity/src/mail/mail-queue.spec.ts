import { describe, expect, it } from '@jest/globals';
import type { MailMessage } from './mailer.js';
import { processMailJob, type MailJob } from './mail-queue.js';

function sender(fail = false) {
  const sent: MailMessage[] = [];
  return {
    sent,
    send: async (message: MailMessage): Promise<void> => {
      if (fail) throw new Error('451 try again later');
      sent.push(message);
    },
  };
}

const message: MailMessage = { to: 'ada@example.com', subject: 'Reset', text: 'a link' };
const reset: MailJob = { kind: 'reset', email: 'ada@example.com' };

describe('processMailJob', () => {
  it('sends what the composer builds', async () => {
    const out = sender();
    expect(await processMailJob(reset, async () => message, out)).toBe('sent');
    expect(out.sent).toEqual([message]);
  });

  it('sends nothing when there is nothing to send (an unknown email asking for a reset)', async () => {
    const out = sender();
    expect(await processMailJob(reset, async () => null, out)).toBe('nothing to send');
    expect(out.sent).toEqual([]);
  });

  it('fails the try when the mail server fails, so the queue tries again', async () => {
    await expect(processMailJob(reset, async () => message, sender(true))).rejects.toThrow('451');
  });
});
