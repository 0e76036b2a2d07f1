import { Controller, Get, HttpCode, Inject, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AppError, StorageGetQueryDto, StorageKeyParamDto, StoragePutQueryDto, SUBJECTS, type ResponseMap } from '@tinkerdesk/contracts';
import { attachment, localGrantProblem, RpcClient, savedFileKey, savedFileObjectKey, type ObjectStore } from '@tinkerdesk/nest-common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { SAVED_FILES_STORE } from './saved-files-store.provider.js';

/** The media type without its parameters, in lower case. */
function bareType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The site's own storage of saved files, used when no S3 bucket is configured: what the signed URLs of
 * /v1/files point to. The signature (HMAC-SHA256 with FILES_SIGNING_SECRET) grants one method on one
 * key until its expiry, and for a PUT exactly the declared size and media type, as an S3 presigned URL
 * does. No bearer token: whoever holds the URL may use it until it expires. An upload URL also carries a
 * one-time token the conversion service checks against the declared file: it works for one upload while
 * the file is pending, each PUT writes an object of its own, and that object becomes the file's only if
 * the file still waits for it when the PUT ends (otherwise it is removed and the PUT answers 409).
 */
@ApiTags('files')
@Controller('v1/storage')
export class StorageController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SAVED_FILES_STORE) private readonly store: () => Promise<ObjectStore>,
    @Inject(RpcClient) private readonly rpc: RpcClient,
  ) {}

  private check(method: 'PUT' | 'GET', grant: Parameters<typeof localGrantProblem>[2], signature: string): void {
    if (this.config.FILES_S3_BUCKET) throw new AppError('NOT_FOUND', 'files are stored in S3 on this server');
    const problem = localGrantProblem(this.config.FILES_SIGNING_SECRET, method, grant, signature);
    if (problem) throw new AppError('FORBIDDEN', problem);
  }

  @Put(':owner/:file')
  @HttpCode(200)
  @ApiConsumes('application/octet-stream')
  @ApiOperation({
    summary: 'Store a file through the signed URL POST /v1/files answered (200 means stored)',
    description: 'One upload per URL: once it stored the file, or once the file is confirmed or deleted, the URL answers 409.',
  })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE')
  async put(@Param() params: StorageKeyParamDto, @Query() query: StoragePutQueryDto, @Req() req: Request): Promise<ResponseMap['Ok']> {
    const key = savedFileKey(params.owner, params.file);
    this.check('PUT', { key, expires: query.expires, size: query.size, mediaType: query.type, nonce: query.nonce }, query.signature);
    if (bareType(req.headers['content-type']) !== query.type.toLowerCase()) {
      throw new AppError('VALIDATION_FAILED', `Content-Type must be ${query.type}, as signed`);
    }
    const declared = req.headers['content-length'];
    if (declared === undefined || Number(declared) !== query.size) {
      throw new AppError('VALIDATION_FAILED', `Content-Length must be ${query.size}, as signed`);
    }
    // The file must still wait for this URL's upload (and no other may be under way): 409 otherwise, before any byte is stored.
    const putId = randomUUID();
    const owned = { id: params.file, ownerId: params.owner, putId };
    try {
      await this.rpc.send(SUBJECTS.conversion.fileUploadBegin, { ...owned, nonce: query.nonce });
    } catch (error) {
      // Unanswered: it may have begun all the same; let the URL be tried again.
      if (error instanceof AppError && error.code === 'UNAVAILABLE') await this.release(owned);
      throw error;
    }
    const name = savedFileObjectKey(params.owner, params.file, putId);
    try {
      await this.receive(req, name, query.size);
    } catch (error) {
      await this.release(owned);
      throw error;
    }
    try {
      await this.rpc.send(SUBJECTS.conversion.fileUploadEnd, { ...owned, stored: true });
    } catch (error) {
      // Refused (the file was deleted meanwhile): the bytes are nobody's. Unanswered: the file's record
      // names this object either way, so deleting or dropping the file removes it.
      if (error instanceof AppError && error.code !== 'UNAVAILABLE') await (await this.store()).delete(name).catch(() => undefined);
      throw error;
    }
    return { success: true };
  }

  /** The PUT `putId` stored nothing: the URL may be used again (best effort; the file is dropped in time otherwise). */
  private async release(owned: { id: string; ownerId: string; putId: string }): Promise<void> {
    await this.rpc.send(SUBJECTS.conversion.fileUploadEnd, { ...owned, stored: false }).catch(() => undefined);
  }

  /** Stores exactly `size` bytes of the request under `name` (a fresh object), or nothing. */
  private async receive(req: Request, name: string, size: number): Promise<void> {
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > size) done(new AppError('PAYLOAD_TOO_LARGE', `more than the ${size} bytes signed for`));
        else done(null, chunk);
      },
    });
    req.on('error', (error) => counter.destroy(error));
    req.pipe(counter);
    const store = await this.store();
    try {
      await store.put({ name }, Readable.toWeb(counter) as unknown as Parameters<ObjectStore['put']>[1]);
    } catch (error) {
      await store.delete(name).catch(() => undefined);
      if (error instanceof AppError) throw error;
      if (error instanceof Error && /maximum bytes|insufficient|storage/i.test(error.message)) {
        throw new AppError('UNAVAILABLE', 'the file store is full right now; try again later');
      }
      throw error;
    }
    if (received !== size) {
      await store.delete(name).catch(() => undefined);
      throw new AppError('VALIDATION_FAILED', `received ${received} bytes, not the ${size} signed for`);
    }
  }

  @Get(':owner/:file')
  @ApiOperation({ summary: 'Download a saved file through the signed URL GET /v1/files/{id}/download answered' })
  @ApiResponse({
    status: 200,
    description: 'The file, as an attachment under its name',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors('FORBIDDEN', 'NOT_FOUND')
  async get(@Param() params: StorageKeyParamDto, @Query() query: StorageGetQueryDto, @Res() res: Response): Promise<void> {
    const key = query.version ? savedFileObjectKey(params.owner, params.file, query.version) : savedFileKey(params.owner, params.file);
    this.check('GET', { key, expires: query.expires, filename: query.filename, mediaType: query.type }, query.signature);
    const store = await this.store();
    const info = await store.info(key);
    const stored = info && !info.deleted ? await store.get(key) : null;
    if (!info || !stored) throw new AppError('NOT_FOUND', 'the file is no longer stored');
    res.status(200);
    res.setHeader('content-type', query.type);
    res.setHeader('content-length', String(info.size));
    res.setHeader('content-disposition', attachment(query.filename));
    res.setHeader('cache-control', 'private, no-store');
    // Never rendered as a page of this site, whatever it holds.
    res.setHeader('content-security-policy', "sandbox; default-src 'none'");
    Readable.fromWeb(stored.data as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
  }
}
