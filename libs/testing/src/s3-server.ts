import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What the tests use of s3rver (a CommonJS package without types). */
interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverInstance;

export interface LoopbackS3 {
  /** http://127.0.0.1:<port>: the endpoint for path-style requests. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Requests refused for their signature so far. */
  refused: number;
  close(): Promise<void>;
}

const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

/** RFC 3986 encoding as AWS Signature Version 4 wants it. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Checks an AWS Signature Version 4 request (presigned query or Authorization header) with an
 * implementation of the algorithm written here from AWS's specification, independent of the SDK that
 * signed it. Answers why it is refused, or undefined.
 */
export function sigV4Problem(req: IncomingMessage, secret: string, now = new Date()): string | undefined {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const query = url.searchParams;
  let credential: string | undefined;
  let signedHeaders: string | undefined;
  let signature: string | undefined;
  let amzDate: string | undefined;
  let payloadHash: string;
  const fromQuery = query.has('X-Amz-Signature');
  if (fromQuery) {
    credential = query.get('X-Amz-Credential') ?? undefined;
    signedHeaders = query.get('X-Amz-SignedHeaders') ?? undefined;
    signature = query.get('X-Amz-Signature') ?? undefined;
    amzDate = query.get('X-Amz-Date') ?? undefined;
    payloadHash = query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(query.get('X-Amz-Expires'));
    const signedAt = amzDate ? Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')) : NaN;
    if (!Number.isFinite(signedAt) || !Number.isFinite(expires) || signedAt + expires * 1000 < now.getTime()) return 'expired';
  } else {
    const header = req.headers.authorization ?? '';
    const parsed = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(header);
    if (!parsed) return 'no signature';
    [, credential, signedHeaders, signature] = parsed;
    amzDate = String(req.headers['x-amz-date'] ?? '');
    payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  }
  if (!credential || !signedHeaders || !signature || !amzDate) return 'incomplete signature';
  const [accessKey, ...scopeParts] = credential.split('/');
  if (accessKey !== ACCESS_KEY) return 'unknown access key';
  const scope = scopeParts.join('/');
  const [date, region, service] = scopeParts;
  const canonicalQuery = [...query.entries()]
    .filter(([key]) => !(fromQuery && key === 'X-Amz-Signature'))
    .map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names
    .map((name) => {
      const value = req.headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [req.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date ?? ''), region ?? ''), service ?? ''), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
  const given = Buffer.from(signature);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? undefined : 'signature does not match';
}

function refuse(res: ServerResponse, code: string, message: string, status = 403): void {
  res
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** The entity tag of an object of the backend (s3rver), or undefined when it is not there. */
function backendEtag(port: number, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const head = request({ host: '127.0.0.1', port, method: 'HEAD', path }, (answer) => {
      answer.resume();
      resolve(answer.statusCode === 200 ? String(answer.headers.etag ?? '') : undefined);
    });
    head.on('error', reject);
    head.end();
  });
}

/**
 * A real S3-protocol server on loopback: s3rver (buckets, objects, presigned URLs, response header
 * overrides) behind a front that checks every request's AWS Signature V4 (s3rver itself does not),
 * so a tampered URL, or a PUT with another size or media type than signed, is refused with 403 as S3
 * refuses it. The front also keeps the condition of a conditional copy (x-amz-copy-source-if-match, which
 * s3rver ignores): 412 PreconditionFailed when the source's entity tag is another. One empty bucket, in
 * a folder of its own; credentials S3RVER/S3RVER.
 */
export async function startLoopbackS3(bucket = 'tinkerdesk-test'): Promise<LoopbackS3> {
  const directory = mkdtempSync(join(tmpdir(), 'tinkerdesk-s3-'));
  const backend = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port: backendPort } = await backend.run();
  const state = { refused: 0 };
  const front: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const problem = sigV4Problem(req, SECRET_KEY);
    if (problem) {
      state.refused++;
      req.resume();
      refuse(res, problem === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch', problem);
      return;
    }
    const source = req.headers['x-amz-copy-source'];
    const ifMatch = req.headers['x-amz-copy-source-if-match'];
    if (req.method === 'PUT' && typeof source === 'string' && typeof ifMatch === 'string') {
      const etag = await backendEtag(backendPort, `/${source.replace(/^\//, '')}`).catch(() => undefined);
      if (etag === undefined) {
        req.resume();
        refuse(res, 'NoSuchKey', 'The specified key does not exist.', 404);
        return;
      }
      if (etag !== ifMatch) {
        req.resume();
        refuse(res, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412);
        return;
      }
    }
    const forward = request({ host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  }
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    get refused() {
      return state.refused;
    },
    async close() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await backend.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
