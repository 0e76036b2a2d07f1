import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  conversionInputKey,
  conversionOutputKey,
  ConvertUploadDto,
  IMAGE_TARGETS,
  JobIdParamDto,
  SUBJECTS,
  type ConversionJobView,
  type CreateConversionJobDto,
} from '@tinkerdesk/contracts';
import { RpcClient, type ObjectStore } from '@tinkerdesk/nest-common';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FILE_STORE } from './file-store.provider.js';

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

@ApiTags('conversion')
@Controller('v1/convert')
export class ConversionController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(FILE_STORE) private readonly files: ObjectStore,
  ) {}

  @Post('upload')
  @HttpCode(202)
  @UseInterceptors(FileInterceptor('file'))
  @ApiOperation({ summary: 'Queue a conversion of an uploaded file; answers the job to poll' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'to'],
      properties: {
        file: { type: 'string', format: 'binary' },
        to: { type: 'string', enum: [...IMAGE_TARGETS] },
        width: { type: 'integer', minimum: 1, maximum: 10000 },
        height: { type: 'integer', minimum: 1, maximum: 10000 },
      },
    },
  })
  async upload(
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() body: ConvertUploadDto,
  ): Promise<{ success: true; job: ConversionJobView }> {
    if (!file) throw new AppError('VALIDATION_FAILED', 'file is required (multipart field "file")');
    if (file.size === 0) throw new AppError('VALIDATION_FAILED', 'file is empty');
    const id = randomUUID();
    const filename = Buffer.from(file.originalname, 'latin1').toString('utf8').slice(0, 255) || 'upload';
    await this.files.putBlob(
      { name: conversionInputKey(id) },
      new Uint8Array(file.buffer.buffer, file.buffer.byteOffset, file.buffer.byteLength),
    );
    const message: CreateConversionJobDto = {
      id,
      filename,
      mediaType: /^[\w.+-]+\/[\w.+-]+$/.test(file.mimetype) ? file.mimetype : 'application/octet-stream',
      size: file.size,
      to: body.to,
      ...(body.width !== undefined ? { width: body.width } : {}),
      ...(body.height !== undefined ? { height: body.height } : {}),
    };
    try {
      const job = await this.rpc.send(SUBJECTS.conversion.jobCreate, message);
      return { success: true, job };
    } catch (error) {
      await this.files.delete(conversionInputKey(id)).catch(() => undefined);
      throw error;
    }
  }

  @Get('jobs/:id')
  @ApiOperation({ summary: 'State and progress of a conversion job' })
  async job(@Param() params: JobIdParamDto): Promise<{ success: true; job: ConversionJobView }> {
    const job = await this.rpc.send(SUBJECTS.conversion.jobGet, { id: params.id });
    return { success: true, job };
  }

  @Get('jobs/:id/result')
  @ApiOperation({ summary: 'Download the converted file of a completed job' })
  async result(@Param() params: JobIdParamDto, @Res() res: Response): Promise<void> {
    const job = await this.rpc.send(SUBJECTS.conversion.jobGet, { id: params.id });
    if (job.state === 'failed') throw new AppError('UNPROCESSABLE', job.error ?? 'the conversion failed');
    if (job.state !== 'completed' || !job.output) throw new AppError('CONFLICT', `the job is ${job.state}; try again when it is completed`);
    const stored = await this.files.get(conversionOutputKey(job.id));
    if (!stored) throw new AppError('NOT_FOUND', 'the converted file has expired');
    res.status(200);
    res.setHeader('content-type', job.output.mediaType);
    res.setHeader('content-length', String(job.output.size));
    res.setHeader('content-disposition', contentDisposition(job.output.filename));
    res.setHeader('cache-control', 'private, no-store');
    Readable.fromWeb(stored.data as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
  }
}
