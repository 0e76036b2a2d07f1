import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateSavedFileDto, FileIdParamDto, ListQueryDto, SUBJECTS, type ResponseMap } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';

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
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Declare a file to save (name, media type, exact size): answers the pending file and a signed URL to PUT it to',
    description:
      'PUT exactly `size` bytes to `upload.url` with `upload.headers` before `upload.expires` (200 means stored), then POST /v1/files/{id}/complete. ' +
      'The URL is S3 presigned when the server stores in S3, otherwise a path on this host signed the same way.',
  })
  @ApiAnswer(201, 'SavedFileCreated')
  @ApiErrors('QUOTA_EXCEEDED')
  async create(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: CreateSavedFileDto,
  ): Promise<ResponseMap['SavedFileCreated']> {
    return { success: true, ...(await this.rpc.send(SUBJECTS.conversion.fileCreate, { ...body, ownerId: session.userId })) };
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
    return { success: true, file: await this.rpc.send(SUBJECTS.conversion.fileComplete, { id: params.id, ownerId: session.userId }) };
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
