import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PushMessage } from '@tinkerdesk/contracts';
import { addressProblem } from '@tinkerdesk/nest-common';
import webpush from 'web-push';
import type { StoredSubscription } from '../terminals/terminals.repository.js';

export interface PushSettings {
  publicKey: string | undefined;
  privateKey: string | undefined;
  subject: string;
  ttlSeconds: number;
  timeoutMs: number;
  /** Hosts exempt from the inside-address check, and allowed over plain http (tests: a push service on loopback). */
  allowedHosts: ReadonlySet<string>;
}

/** What a push service answered: delivered, gone for good (404/410: forget the subscription), worth another try, or refused. */
export type PushResult = { ok: true; status: number } | { ok: false; gone: boolean; retry: boolean; status: number | null; reason: string };

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that refuses inside addresses (loopback, private, link-local …): a subscription's
 * endpoint comes from the browser, so it must not make the server call into its own network. It is
 * the connection's own lookup, so the address checked is the address connected to.
 */
function guardedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses;
    const inside = list.find((a) => addressProblem(a.address));
    if (inside || list.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`push endpoint ${hostname} resolves to an address inside the network`);
      error.code = 'EADDRNOTALLOWED';
      return callback(error, []);
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}

/**
 * Sends Web Push messages (RFC 8030, payload encrypted with aes128gcm per RFC 8291, VAPID per RFC
 * 8292) with the `web-push` package, which builds the request; this class posts it with a deadline,
 * over https only, through a lookup that refuses inside addresses (SSRF).
 */
export class PushSender {
  constructor(private readonly settings: PushSettings) {}

  get enabled(): boolean {
    return Boolean(this.settings.publicKey && this.settings.privateKey);
  }

  get publicKey(): string | undefined {
    return this.settings.publicKey;
  }

  /** Why an endpoint cannot be pushed to, or null (checked when a subscription is saved, and on every send). */
  endpointProblem(endpoint: string): string | null {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return 'endpoint must be an https URL';
    }
    const allowed = this.settings.allowedHosts.has(url.hostname.toLowerCase());
    if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) return 'endpoint must be an https URL';
    if (url.username || url.password) return 'endpoint must not carry credentials';
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && /^[0-9.]+$|:/.test(literal) && addressProblem(literal)) return 'endpoint must not point inside the network';
    return null;
  }

  async send(subscription: StoredSubscription, message: PushMessage): Promise<PushResult> {
    if (!this.enabled) return { ok: false, gone: false, retry: false, status: null, reason: 'push notifications unavailable' };
    const problem = this.endpointProblem(subscription.endpoint);
    if (problem) return { ok: false, gone: true, retry: false, status: null, reason: problem };
    const details = webpush.generateRequestDetails(subscription, JSON.stringify(message), {
      vapidDetails: { subject: this.settings.subject, publicKey: this.settings.publicKey!, privateKey: this.settings.privateKey! },
      TTL: this.settings.ttlSeconds,
      contentEncoding: 'aes128gcm',
      urgency: 'high',
    });
    const url = new URL(details.endpoint);
    const allowed = this.settings.allowedHosts.has(url.hostname.toLowerCase());
    let status: number;
    let body: string;
    try {
      ({ status, body } = await this.post(url, details.method, details.headers as Record<string, string | number>, details.body, allowed));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRNOTALLOWED') return { ok: false, gone: true, retry: false, status: null, reason: (error as Error).message };
      return {
        ok: false,
        gone: false,
        retry: true,
        status: null,
        reason: `the push service could not be reached${code ? ` (${code})` : ''}`,
      };
    }
    if (status >= 200 && status < 300) return { ok: true, status };
    const reason = `the push service answered ${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
    if (status === 404 || status === 410) return { ok: false, gone: true, retry: false, status, reason };
    if (status === 429 || status >= 500) return { ok: false, gone: false, retry: true, status, reason };
    return { ok: false, gone: false, retry: false, status, reason };
  }

  private post(
    url: URL,
    method: string,
    headers: Record<string, string | number>,
    body: Buffer | null,
    allowed: boolean,
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
      const req = send(
        url,
        { method, headers, timeout: this.settings.timeoutMs, ...(allowed ? {} : { lookup: guardedLookup as never }) },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= 4096) chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  }
}
