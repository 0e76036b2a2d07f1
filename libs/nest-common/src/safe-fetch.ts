import { AppError } from '@tinkerdesk/contracts';
import contentDisposition from 'content-disposition';
import { addressProblem } from './ip-ranges.js';
import { lookup as systemLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Fetching a URL that a user gave, on the server, without letting the user reach inside the network
 * (SSRF): only http and https; the host resolved once and the connection made to exactly that address
 * (no second lookup, so no DNS rebinding); loopback, private, link-local, unique-local, multicast,
 * reserved and unspecified addresses refused, IPv4-mapped and other IPv6 forms that embed an IPv4
 * address included (decimal, octal and hex spellings of an address are normalised by the WHATWG URL
 * parser before the check); every redirect checked again, at most `maxRedirects`; the answer's size
 * and the whole exchange's time bounded. Hosts named in the allow-list (FETCH_ALLOWED_HOSTS) are
 * exempt from the address check (an intranet file server; the tests' loopback server), not from the
 * rest.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchPolicy {
  /** Lower-case host names exempt from the address check. */
  allowedHosts: ReadonlySet<string>;
  /** Largest answer body in bytes. */
  maxBytes: number;
  /** Deadline for the whole exchange, redirects included. */
  timeoutMs: number;
  /** Redirects followed at most (each one checked again). */
  maxRedirects: number;
  resolve?: Resolver;
}

export interface FetchOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface FetchedContent {
  /** The URL the content came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** From Content-Disposition when the server sent one, else the last segment of the URL's path. */
  filename: string;
  size: number;
  body: Buffer;
}

export const DEFAULT_FETCH_POLICY: Omit<FetchPolicy, 'allowedHosts'> = {
  maxBytes: 25 * 1024 * 1024,
  timeoutMs: 15_000,
  maxRedirects: 5,
};

/** FETCH_ALLOWED_HOSTS: comma- or space-separated host names (case does not matter). */
export function parseAllowedHosts(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(/[\s,]+/)
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  );
}

const defaultResolver: Resolver = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));

/** Headers a caller may not set: the connection's own, and the encoding (the size bound counts bytes as sent). */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
  'expect',
  'accept-encoding',
  'proxy-authorization',
  'proxy-connection',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const MAX_HEADERS = 30;
const MAX_HEADER_VALUE = 8 * 1024;

function outgoingHeaders(given: Record<string, string> = {}): Record<string, string> {
  const entries = Object.entries(given);
  if (entries.length > MAX_HEADERS) throw new AppError('VALIDATION_FAILED', `headers may hold at most ${MAX_HEADERS} entries`);
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw new AppError('VALIDATION_FAILED', `headers: "${name.slice(0, 40)}" is not a valid header name`);
    if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE || /[\r\n\0]/.test(value)) {
      throw new AppError('VALIDATION_FAILED', `headers: the value of ${name} must be one line of at most ${MAX_HEADER_VALUE} characters`);
    }
    if (FORBIDDEN_HEADERS.has(name.toLowerCase())) continue;
    headers[name] = value;
  }
  return {
    'user-agent': 'Tinkerdesk-Fetch/1.0 (+https://tinkerdesk.example/security)',
    accept: '*/*',
    ...headers,
    'accept-encoding': 'identity',
  };
}

/** Checks a URL and resolves its host once: the address to connect to. */
async function destination(url: URL, policy: FetchPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('URL_NOT_ALLOWED', `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username || url.password) throw new AppError('URL_NOT_ALLOWED', 'URLs with a user name or password cannot be fetched');
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const allowed = policy.allowedHosts.has(host);
  // RFC 6761: localhost and every name under it are this machine, whatever a resolver says.
  if (!allowed && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw new AppError('URL_NOT_ALLOWED', `${url.host} cannot be fetched: it names this machine`);
  }
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? defaultResolver)(host);
    } catch {
      throw new AppError('UNAVAILABLE', `${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new AppError('UNAVAILABLE', `${host} could not be resolved`);
  }
  if (!allowed) {
    // Every address the name has must be public: a name that resolves to an inside address among
    // others is refused, whichever one a connection would pick.
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) throw new AppError('URL_NOT_ALLOWED', `${url.host} cannot be fetched: ${problem}`);
    }
  }
  return addresses[0]!;
}

/** A lookup that answers the address already checked, so the connection goes exactly there. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

function filenameOf(response: IncomingMessage, url: URL): string {
  const header = response.headers['content-disposition'];
  if (header) {
    try {
      const name = contentDisposition.parse(header).parameters.filename;
      if (name) return name;
    } catch {
      // a malformed header: fall back to the URL
    }
  }
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  try {
    return last ? decodeURIComponent(last) : url.hostname;
  } catch {
    return last ?? url.hostname;
  }
}

interface Hop {
  response: IncomingMessage;
  body?: Buffer;
}

function exchange(
  url: URL,
  pinned: ResolvedAddress,
  headers: Record<string, string>,
  policy: FetchPolicy,
  signal: AbortSignal,
): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'GET', headers, lookup: pinnedLookup(pinned), signal, agent: false });
    req.on('error', (error) => reject(error));
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        resolve({ response });
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        req.destroy();
        reject(new AppError('PAYLOAD_TOO_LARGE', `the content is larger than ${policy.maxBytes} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          req.destroy();
          reject(new AppError('PAYLOAD_TOO_LARGE', `the content is larger than ${policy.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ response, body: Buffer.concat(chunks, size) }));
      response.on('error', (error) => reject(error));
    });
    req.end();
  });
}

/**
 * Checks a URL as safeFetch would before its first request (scheme, credentials, every address of
 * its host), without fetching it: for answering 403 at once when a job is created for a URL a worker
 * will fetch later (and check again).
 */
export async function checkUrl(target: string, policy: FetchPolicy): Promise<void> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'url must be an absolute http or https URL');
  }
  await destination(url, policy);
}

/**
 * Fetches `target` under the policy. Failures are AppErrors: URL_NOT_ALLOWED (scheme, credentials,
 * an inside address, on the first hop or after a redirect), VALIDATION_FAILED (a malformed URL or
 * header), PAYLOAD_TOO_LARGE, UPSTREAM_ERROR (the server answered an error status, or too many
 * redirects), UNAVAILABLE (no answer: unresolvable, refused, reset or past the deadline).
 */
export async function safeFetch(target: string, policy: FetchPolicy, options: FetchOptions = {}): Promise<FetchedContent> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'url must be an absolute http or https URL');
  }
  const headers = outgoingHeaders(options.headers);
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  for (let redirects = 0; ; redirects++) {
    const pinned = await destination(url, policy);
    let hop: Hop;
    try {
      hop = await exchange(url, pinned, headers, policy, signal);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (deadline.aborted) throw new AppError('UNAVAILABLE', `${url.host} did not answer within ${policy.timeoutMs} ms`);
      const code = (error as NodeJS.ErrnoException).code;
      throw new AppError('UNAVAILABLE', `${url.host} could not be reached${code ? ` (${code})` : ''}`);
    }
    const status = hop.response.statusCode ?? 0;
    if (!hop.body) {
      if (redirects >= policy.maxRedirects) throw new AppError('UPSTREAM_ERROR', `more than ${policy.maxRedirects} redirects`);
      try {
        url = new URL(hop.response.headers.location!, url);
      } catch {
        throw new AppError('UPSTREAM_ERROR', `${url.host} redirected to an invalid URL`);
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      throw new AppError(
        'UPSTREAM_ERROR',
        `${url.host} answered ${status}${hop.response.statusMessage ? ` ${hop.response.statusMessage}` : ''}`,
      );
    }
    return {
      url: url.toString(),
      status,
      contentType: hop.response.headers['content-type'] ?? 'application/octet-stream',
      filename: filenameOf(hop.response, url),
      size: hop.body.length,
      body: hop.body,
    };
  }
}
