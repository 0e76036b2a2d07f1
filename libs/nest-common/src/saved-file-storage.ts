import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { NatsConnection } from '@nats-io/transport-node';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { create as contentDisposition } from 'content-disposition';
import { SAVED_FILES_BUCKET, SAVED_FILE_HARD_MAX_BYTES, type DownloadTicket, type UploadTicket } from '@tinkerdesk/contracts';
import { ConfigError, env, type ConfigOf } from './config.js';

/**
 * Where saved files ("my files") live: an S3-compatible bucket when FILES_S3_BUCKET is set (the browser
 * PUTs to a presigned URL, AWS SDK v3), otherwise this site's own storage: a JetStream object store
 * behind `/v1/storage/...` on the gateway, with URLs signed the same way (HMAC-SHA256 over the method,
 * the key, the expiry and what may be sent; checked in constant time).
 */
export const savedFilesSchema = {
  FILES_S3_BUCKET: env.optionalStr(),
  FILES_S3_REGION: env.str('us-east-1'),
  /** An S3-compatible server (MinIO, Ceph, R2...); empty: AWS. */
  FILES_S3_ENDPOINT: env.optionalStr(),
  /** Empty: the AWS SDK's default credential chain (environment, profile, instance role). */
  FILES_S3_ACCESS_KEY_ID: env.optionalStr(),
  FILES_S3_SECRET_ACCESS_KEY: env.optionalStr(),
  /** 'true' for servers that want path-style URLs (http://host/bucket/key), as most S3-compatible ones do. */
  FILES_S3_FORCE_PATH_STYLE: env.oneOf('false', ['true', 'false'] as const),
  /** The key that signs this site's own storage URLs; gateway and conversion must share it. */
  FILES_SIGNING_SECRET: env.str('tinkerdesk-development-signing-secret'),
  /** Largest file one may save, in bytes (100 MiB). */
  FILES_MAX_BYTES: env.int(100 * 1024 ** 2, 1, SAVED_FILE_HARD_MAX_BYTES),
  /** Bytes one account's saved files may take (1 GiB). */
  FILES_QUOTA_BYTES: env.int(1024 ** 3, 1, 1024 ** 4),
  /** The size cap of the site's own storage (object store), in bytes (5 GiB); JetStream reserves it on its disk. */
  FILES_STORE_MAX_BYTES: env.int(5 * 1024 ** 3, 1024 ** 2, 1024 ** 4),
  /** How long a signed download URL works, in seconds. */
  FILES_URL_TTL_SECONDS: env.int(900, 10, 7 * 24 * 3600),
  /** How long an upload URL may start its one upload, in seconds (S3 presigned URLs cannot be revoked: keep it short). */
  FILES_UPLOAD_TTL_SECONDS: env.int(300, 1, 24 * 3600),
  /** A declared file not confirmed within this many seconds is dropped with whatever was uploaded for it. */
  FILES_PENDING_SECONDS: env.int(600, 1, 7 * 24 * 3600),
  /** How often the conversion service drops unconfirmed files and leftover uploads, in seconds. */
  FILES_SWEEP_SECONDS: env.int(60, 1, 3600),
};

export type SavedFilesConfig = ConfigOf<typeof savedFilesSchema> & { NODE_ENV: string; NATS_PREFIX: string };

const DEVELOPMENT_SECRET = 'tinkerdesk-development-signing-secret';

/** In production the site's own storage needs a real secret (the development default is public). */
export function checkSavedFilesConfig(config: SavedFilesConfig): void {
  if (config.NODE_ENV === 'production' && !config.FILES_S3_BUCKET && config.FILES_SIGNING_SECRET === DEVELOPMENT_SECRET) {
    throw new ConfigError('FILES_SIGNING_SECRET', 'must be set to a secret of your own in production (or set FILES_S3_BUCKET)');
  }
  if (config.FILES_SIGNING_SECRET.length < 16) throw new ConfigError('FILES_SIGNING_SECRET', 'must have at least 16 characters');
  if (config.FILES_PENDING_SECONDS < config.FILES_UPLOAD_TTL_SECONDS) {
    throw new ConfigError('FILES_PENDING_SECONDS', `must be at least FILES_UPLOAD_TTL_SECONDS (${config.FILES_UPLOAD_TTL_SECONDS})`);
  }
}

export interface StoredObject {
  size: number;
  /** S3: the object's entity tag (for a plain PUT, the MD5 of its bytes); changes when the object is replaced. */
  etag?: string;
}

export interface FileFacts {
  mediaType: string;
  size: number;
}

/** The declared file an upload URL is for, and the one-time token of that URL. */
export interface UploadTarget {
  ownerId: string;
  fileId: string;
  nonce: string;
}

interface StorageOperations {
  /** Where and how to PUT exactly `facts.size` bytes of `facts.mediaType` for the declared file. */
  uploadTicket(target: UploadTarget, facts: FileFacts, ttlSeconds: number, now?: Date): Promise<UploadTicket>;
  /** A signed URL that downloads the object `objectKey` (a key no upload URL writes to). */
  downloadTicket(objectKey: string, file: { filename: string; mediaType: string }, ttlSeconds: number, now?: Date): Promise<DownloadTicket>;
  /** What is stored under `key`, or undefined. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** Removes `key`; nothing happens when it is not there. */
  remove(key: string): Promise<void>;
}

/**
 * S3: a presigned PUT URL cannot be revoked, so it writes to the file's upload key, and confirming the
 * file copies that object, on condition that it is still the one that was checked, to a key of its own.
 */
export interface S3Storage extends StorageOperations {
  readonly kind: 's3';
  /** Copies `from` to `to` if `from` is still the object with entity tag `etag`; false when it was replaced meanwhile (or is gone). */
  copyIfUnchanged(from: string, to: string, etag: string): Promise<boolean>;
}

/**
 * The site's own storage: every PUT writes a fresh object (`{owner}/{file}/{putId}`), which becomes the
 * file's bytes at the end of the PUT only if the conversion service still expects an upload for the URL.
 */
export interface LocalStorage extends StorageOperations {
  readonly kind: 'local';
}

export type SavedFileStorage = S3Storage | LocalStorage;

/** The key of a saved file: its owner's id, then its own (files saved before versions live right there). */
export function savedFileKey(ownerId: string, fileId: string): string {
  return `${ownerId}/${fileId}`;
}

/** The key of one version of a file's bytes: written once, by one PUT (local) or one confirmation (S3), never again. */
export function savedFileObjectKey(ownerId: string, fileId: string, version: string): string {
  return `${savedFileKey(ownerId, fileId)}/${version}`;
}

/** S3: the key a file's presigned upload URL writes to (never served: confirming copies it away). */
export function savedFileUploadKey(ownerId: string, fileId: string): string {
  return `${savedFileKey(ownerId, fileId)}/upload`;
}

/** RFC 6266 attachment with an ASCII fallback and filename*. */
export function attachment(filename: string): string {
  return contentDisposition(filename, { type: 'attachment' });
}

// ---------------------------------------------------------------- S3

function s3Status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export class S3SavedFileStorage implements S3Storage {
  readonly kind = 's3' as const;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  static fromConfig(config: SavedFilesConfig): S3SavedFileStorage {
    const client = new S3Client({
      region: config.FILES_S3_REGION,
      // Otherwise the SDK adds a checksum of the (empty) body to presigned PUT URLs, which S3 then checks
      // against the browser's file and refuses.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      ...(config.FILES_S3_ENDPOINT ? { endpoint: config.FILES_S3_ENDPOINT } : {}),
      forcePathStyle: config.FILES_S3_FORCE_PATH_STYLE === 'true',
      ...(config.FILES_S3_ACCESS_KEY_ID && config.FILES_S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: config.FILES_S3_ACCESS_KEY_ID, secretAccessKey: config.FILES_S3_SECRET_ACCESS_KEY } }
        : {}),
    });
    return new S3SavedFileStorage(client, config.FILES_S3_BUCKET ?? '');
  }

  async uploadTicket(target: UploadTarget, facts: FileFacts, ttlSeconds: number, now = new Date()): Promise<UploadTicket> {
    const key = savedFileUploadKey(target.ownerId, target.fileId);
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: facts.mediaType, ContentLength: facts.size });
    // Content-Type and Content-Length are signed: the PUT must send exactly what was declared.
    const url = await getSignedUrl(this.client, command, {
      expiresIn: ttlSeconds,
      signingDate: now,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      method: 'PUT',
      headers: { 'content-type': facts.mediaType },
      expires: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
    };
  }

  async downloadTicket(
    key: string,
    file: { filename: string; mediaType: string },
    ttlSeconds: number,
    now = new Date(),
  ): Promise<DownloadTicket> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: attachment(file.filename),
      ResponseContentType: file.mediaType,
    });
    const url = await getSignedUrl(this.client, command, { expiresIn: ttlSeconds, signingDate: now });
    return { url, expires: new Date(now.getTime() + ttlSeconds * 1000).toISOString() };
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, ...(head.ETag ? { etag: head.ETag } : {}) };
    } catch (error) {
      if (s3Status(error) === 404 || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }

  async copyIfUnchanged(from: string, to: string, etag: string): Promise<boolean> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
          CopySourceIfMatch: etag,
        }),
      );
      return true;
    } catch (error) {
      // 412: replaced since it was checked; 404: removed meanwhile.
      if (s3Status(error) === 412 || s3Status(error) === 404) return false;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

// ---------------------------------------------------------------- the site's own storage

/** The path of the site's own storage on the gateway (the URLs are relative to the API host). */
export const LOCAL_STORAGE_PATH = '/v1/storage';

export interface LocalPutGrant {
  /** `{owner}/{file}`: the declared file (each PUT writes an object of its own under it). */
  key: string;
  expires: number;
  size: number;
  mediaType: string;
  /** The URL's one-time token, checked against the declared file by the conversion service. */
  nonce: string;
}

export interface LocalGetGrant {
  /** The object: `{owner}/{file}/{version}` (or `{owner}/{file}` for files saved before versions). */
  key: string;
  expires: number;
  filename: string;
  mediaType: string;
}

function hmac(secret: string, parts: (string | number)[]): string {
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const signLocalPut = (secret: string, g: LocalPutGrant): string =>
  hmac(secret, ['PUT', g.key, g.expires, g.size, g.mediaType, g.nonce]);
export const signLocalGet = (secret: string, g: LocalGetGrant): string => hmac(secret, ['GET', g.key, g.expires, g.filename, g.mediaType]);

/** Why a signed URL of the site's own storage does not allow the request, or undefined when it does. */
export function localGrantProblem(
  secret: string,
  method: 'PUT' | 'GET',
  grant: LocalPutGrant | LocalGetGrant,
  signature: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string | undefined {
  const expected = method === 'PUT' ? signLocalPut(secret, grant as LocalPutGrant) : signLocalGet(secret, grant as LocalGetGrant);
  if (!sameSignature(signature, expected)) return 'the signature of this storage URL does not match';
  if (grant.expires < nowSeconds) return 'this storage URL has expired';
  return undefined;
}

export async function openSavedFilesStore(nc: NatsConnection, prefix: string, maxBytes: number): Promise<ObjectStore> {
  const name = prefix ? `${prefix}_${SAVED_FILES_BUCKET}` : SAVED_FILES_BUCKET;
  return new Objm(nc).create(name, { max_bytes: maxBytes });
}

export class LocalSavedFileStorage implements LocalStorage {
  readonly kind = 'local' as const;

  constructor(
    private readonly store: () => Promise<ObjectStore>,
    private readonly secret: string,
  ) {}

  async uploadTicket(target: UploadTarget, facts: FileFacts, ttlSeconds: number, now = new Date()): Promise<UploadTicket> {
    const key = savedFileKey(target.ownerId, target.fileId);
    const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
    const grant = { key, expires, size: facts.size, mediaType: facts.mediaType, nonce: target.nonce };
    const query = new URLSearchParams({
      expires: String(expires),
      size: String(facts.size),
      type: facts.mediaType,
      nonce: target.nonce,
      signature: signLocalPut(this.secret, grant),
    });
    return {
      url: `${LOCAL_STORAGE_PATH}/${key}?${query.toString()}`,
      method: 'PUT',
      headers: { 'content-type': facts.mediaType },
      expires: new Date(expires * 1000).toISOString(),
    };
  }

  async downloadTicket(
    objectKey: string,
    file: { filename: string; mediaType: string },
    ttlSeconds: number,
    now = new Date(),
  ): Promise<DownloadTicket> {
    const [owner, fileId, version] = objectKey.split('/');
    const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
    const grant = { key: objectKey, expires, filename: file.filename, mediaType: file.mediaType };
    const query = new URLSearchParams({
      expires: String(expires),
      filename: file.filename,
      type: file.mediaType,
      ...(version ? { version } : {}),
      signature: signLocalGet(this.secret, grant),
    });
    return { url: `${LOCAL_STORAGE_PATH}/${owner}/${fileId}?${query.toString()}`, expires: new Date(expires * 1000).toISOString() };
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const info = await (await this.store()).info(key);
    return info && !info.deleted ? { size: info.size } : undefined;
  }

  async remove(key: string): Promise<void> {
    await (await this.store()).delete(key);
  }
}

/** S3 when a bucket is configured, the site's own storage otherwise. */
export function savedFileStorage(config: SavedFilesConfig, nc: () => Promise<NatsConnection>): SavedFileStorage {
  if (config.FILES_S3_BUCKET) return S3SavedFileStorage.fromConfig(config);
  let store: Promise<ObjectStore> | undefined;
  const open = () => (store ??= nc().then((c) => openSavedFilesStore(c, config.NATS_PREFIX, config.FILES_STORE_MAX_BYTES)));
  return new LocalSavedFileStorage(open, config.FILES_SIGNING_SECRET);
}
