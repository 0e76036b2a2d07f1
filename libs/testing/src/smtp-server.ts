import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Recipients, lower case. */
  to: string[];
  /** The message as sent, quoted-printable decoded. */
  text: string;
}

export interface LoopbackSmtp {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  inbox: ReceivedMail[];
  /**
   * What the server does with each message before taking it: nothing by default; a test may hold it
   * (a slow server) or throw (a temporary failure, answered 451).
   */
  beforeTaking: (to: string[], text: string) => Promise<void> | void;
  /** The newest mail to `to` whose text matches `pattern`, waiting up to 10 s for it. */
  mailTo(to: string, pattern?: RegExp): Promise<string>;
  close(): Promise<void>;
}

/** Quoted-printable soft breaks and escapes, as nodemailer writes long lines. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on loopback (the smtp-server package) that keeps what it receives. */
export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const inbox: ReceivedMail[] = [];
  const state: LoopbackSmtp = {
    url: '',
    inbox,
    beforeTaking: () => undefined,
    async mailTo(to, pattern = /./) {
      for (let i = 0; i < 200; i++) {
        const found = inbox.findLast((m) => m.to.includes(to.toLowerCase()) && pattern.test(m.text));
        if (found) return found.text;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} matching ${String(pattern)}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const text = decodeQuotedPrintable(raw);
        Promise.resolve()
          .then(() => state.beforeTaking(to, text))
          .then(
            () => {
              inbox.push({ to, text });
              callback();
            },
            (error: unknown) => callback(Object.assign(new Error(String(error)), { responseCode: 451 })),
          );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}
