import type { AccountsService } from '../accounts/accounts.service.js';
import type { ContactService } from '../contact/contact.service.js';
import type { MailComposer } from './mail-queue.js';

/** Which service composes which kind of mail. */
export function mailComposer(accounts: AccountsService, contact: ContactService): MailComposer {
  return (job) => {
    switch (job.kind) {
      case 'reset':
        return accounts.resetMail(job.email);
      case 'verification':
        return accounts.verificationMail(job.userId, job.returnTo);
      case 'contact':
        return contact.mailFor(job.contactId);
      case 'message':
        return accounts.messageMail(job.message);
    }
  };
}
