import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@tinkerdesk/nest-common';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  dataDir: string;
}

/**
 * Sends mail through SMTP when SMTP_URL is set; otherwise writes each message as an .eml file under
 * DATA_DIR/mail and logs its path, so the platform runs with no mail server.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly options: MailerOptions,
    private readonly logger: Logger,
  ) {
    this.transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.options.from, ...message });
    if (this.options.smtpUrl) {
      this.logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      return;
    }
    const folder = resolve(this.options.dataDir, 'mail');
    await mkdir(folder, { recursive: true });
    const path = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
    await writeFile(path, (info as unknown as { message: Buffer }).message);
    this.logger.info({ to: message.to, subject: message.subject, path }, 'mail written to file (no SMTP_URL)');
  }
}
