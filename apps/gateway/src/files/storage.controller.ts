import { Controller, Get, HttpCode, Inject, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AppError, StorageGetQueryDto, StorageKeyParamDto, StoragePutQueryDto, type ResponseMap } from '@tinkerdesk/contracts';
import { attachment, localGrantProblem, savedFileKey, type ObjectStore } from '@tinkerdesk/nest-common';
import type { Request, Response } from 'express';
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
 * does. No bearer token: whoever holds the URL may use it until it expires.
 */
@ApiTags('files')
@Controller('v1/storage')
export class StorageController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SAVED_FILES_STORE) private readonly store: () => Promise<ObjectStore>,
  ) {}

  private check(method: 'PUT' | 'GET', grant: Parameters<typeof localGrantProblem>[2], signature: string): void {
    if (this.config.FILES_S3_BUCKET) throw new AppError('NOT_FOUND', 'files are stored in S3 on this server');
    const problem = localGrantProblem(this.config.FILES_SIGNING_SECRET, method, grant, signature);
    if (problem) throw new AppError('FORBIDDEN', problem);
  }

  @Put(':owner/:file')
  @HttpCode(200)
  @ApiConsumes('application/octet-stream')
  @ApiOperation({ summary: 'Store a file through the signed URL POST /v1/files answered (200 means stored)' })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('FORBIDDEN', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  async put(@Param() params: StorageKeyParamDto, @Query() query: StoragePutQueryDto, @Req() req: Request): Promise<ResponseMap['Ok']> {
    const key = savedFileKey(params.owner, params.file);
    this.check('PUT', { key, expires: query.expires, size: query.size, mediaType: query.type }, query.signature);
    if (bareType(req.headers['content-type']) !== query.type.toLowerCase()) {
      throw new AppError('VALIDATION_FAILED', `Content-Type must be ${query.type}, as signed`);
    }
    const declared = req.headers['content-length'];
    if (declared === undefined || Number(declared) !== query.size) {
      throw new AppError('VALIDATION_FAILED', `Content-Length must be ${query.size}, as signed`);
    }
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > query.size) done(new AppError('PAYLOAD_TOO_LARGE', `more than the ${query.size} bytes signed for`));
        else done(null, chunk);
      },
    });
    req.on('error', (error) => counter.destroy(error));
    req.pipe(counter);
    const store = await this.store();
    try {
      await store.put({ name: key }, Readable.toWeb(counter) as unknown as Parameters<ObjectStore['put']>[1]);
    } catch (error) {
      await store.delete(key).catch(() => undefined);
      if (error instanceof AppError) throw error;
      if (error instanceof Error && /maximum bytes|insufficient|storage/i.test(error.message)) {
        throw new AppError('UNAVAILABLE', 'the file store is full right now; try again later');
      }
      throw error;
    }
    if (received !== query.size) {
      await store.delete(key).catch(() => undefined);
      throw new AppError('VALIDATION_FAILED', `received ${received} bytes, not the ${query.size} signed for`);
    }
    return { success: true };
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
    const key = savedFileKey(params.owner, params.file);
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
