import { describe, expect, it } from '@jest/globals';
import { keyedMails } from './identity-directory.js';

describe('keyedMails', () => {
  it('keys each mail of an event by the event and its recipient (account or address)', () => {
    const mails = keyedMails('e1', [
      { toUserId: 'u1', subject: 'To the seller', text: 'a' },
      { to: 'buyer@example.com', subject: 'To the buyer', text: 'b' },
    ]);
    expect(mails.map((m) => m.key)).toEqual(['e1:u1', 'e1:buyer@example.com']);
    expect(mails[0]).toMatchObject({ toUserId: 'u1', subject: 'To the seller', text: 'a' });
  });

  it('a second mail to the same recipient gets a key of its own, the same each time the event is handled', () => {
    const mails = [
      { toUserId: 'u1', subject: 'One', text: 'a' },
      { toUserId: 'u1', subject: 'Two', text: 'b' },
    ];
    expect(keyedMails('e2', mails).map((m) => m.key)).toEqual(['e2:u1', 'e2:u1:2']);
    expect(keyedMails('e2', mails)).toEqual(keyedMails('e2', mails));
  });
});
