import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Logger, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError, CreateSavedFileDto, FileIdParamDto, ListQueryDto, SUBJECTS, type ResponseMap } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';

/** Confirming a file copies it in S3, which may take a while for a large one. */
const S3_COMPLETE_TIMEOUT_MS = 30_000;

/**
 * Saved files ("my files", cloud saves): declare a file, PUT it to the signed URL the answer gives
 * (200 means it is stored), confirm it, then list, download (a short-lived signed URL) or delete it.
 * Another account's file answers 404, exactly like a missing one.
 */
@ApiTags('files')
@ApiBearerAuth()
@UseGuards(BearerGuard)
@Controller('v1/files')
export class FilesController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  private readonly logger = new Logger('FilesController');

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Declare a file to save (name, media type, exact size): answers the pending file and a signed URL to PUT it to',
    description:
      'PUT exactly `size` bytes to `upload.url` with `upload.headers` before `upload.expires` (200 means stored), then POST /v1/files/{id}/complete. ' +
      'The URL is S3 presigned when the server stores in S3, otherwise a path on this host signed the same way. ' +
      "It works for one upload, of this file only, until the file is confirmed or deleted (the site's own storage refuses any other PUT with 409; " +
      'an S3 URL lives only a few minutes and nothing PUT there after the confirmation is ever served). ' +
      'A declaration answered with an error leaves nothing behind; one not confirmed in time is dropped (it counts in `pendingBytes` meanwhile).',
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'SavedFileCreated')
  @ApiErrors('QUOTA_EXCEEDED', 'UNAVAILABLE', 'CONFLICT')
  async create(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: CreateSavedFileDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<ResponseMap['SavedFileCreated']> {
    // The gateway names the file and says until when it waits, so that a declaration it gives up on is
    // not recorded by the service later, and is withdrawn if it was recorded while the answer was on its way.
    // Under an Idempotency-Key it is kept instead: the client's retry answers it (unconfirmed, the sweep drops it).
    const id = randomUUID();
    const ownerId = session.userId;
    const deadline = Date.now() + this.config.RPC_TIMEOUT_MS;
    try {
      return {
        success: true,
        ...(await this.rpc.send(SUBJECTS.conversion.fileCreate, { ...body, id, ownerId, deadline, ...withKey(key) })),
      };
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAVAILABLE' && key === undefined) {
        void this.rpc
          .send(SUBJECTS.conversion.fileAbandon, { id, ownerId })
          .catch((err: unknown) =>
            this.logger.warn(`could not withdraw the unanswered file declaration ${id} (the sweep will drop it): ${String(err)}`),
          );
      }
      throw error;
    }
  }

  @Get()
  @ApiOperation({ summary: "The caller's saved files, newest first (offset, limit; total and the quota in the body)" })
  @ApiAnswer(200, 'SavedFiles')
  async list(@CurrentSession() session: AuthenticatedSession, @Query() query: ListQueryDto): Promise<ResponseMap['SavedFiles']> {
    const list = await this.rpc.send(SUBJECTS.conversion.fileList, {
      ownerId: session.userId,
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    return { success: true, ...list };
  }

  @Post(':id/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the upload: the storage must hold exactly the declared bytes (409 before the PUT)' })
  @ApiAnswer(200, 'SavedFile')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async complete(@CurrentSession() session: AuthenticatedSession, @Param() params: FileIdParamDto): Promise<ResponseMap['SavedFile']> {
    const timeout = this.config.FILES_S3_BUCKET ? Math.max(this.config.RPC_TIMEOUT_MS, S3_COMPLETE_TIMEOUT_MS) : this.config.RPC_TIMEOUT_MS;
    const file = await this.rpc.send(SUBJECTS.conversion.fileComplete, { id: params.id, ownerId: session.userId }, timeout);
    return { success: true, file };
  }

  @Get(':id/download')
  @ApiOperation({ summary: 'A short-lived signed URL that downloads the file' })
  @ApiAnswer(200, 'FileDownload')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async download(@CurrentSession() session: AuthenticatedSession, @Param() params: FileIdParamDto): Promise<ResponseMap['FileDownload']> {
    return { success: true, ...(await this.rpc.send(SUBJECTS.conversion.fileDownload, { id: params.id, ownerId: session.userId })) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a saved file (its bytes go at once)' })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('NOT_FOUND')
  remove(@CurrentSession() session: AuthenticatedSession, @Param() params: FileIdParamDto): Promise<ResponseMap['Ok']> {
    return this.rpc.send(SUBJECTS.conversion.fileDelete, { id: params.id, ownerId: session.userId });
  }
}
