import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  CONVERSION_TARGETS,
  conversionInputKey,
  conversionOutputKey,
  ConvertFetchDto,
  ConvertUploadDto,
  ConvertUploadQueryDto,
  detectSourceFormat,
  JOB_WAIT_MAX_SECONDS,
  JobIdParamDto,
  JobWaitQueryDto,
  ListQueryDto,
  pairProblem,
  formatsWithEngines,
  sourceFormat,
  SUBJECTS,
  TARGET_FORMATS,
  type ConversionJobList,
  type ConversionJobView,
  type ConversionOptions,
  type EngineStatus,
  type SourceFormat,
  type TargetFormat,
} from '@tinkerdesk/contracts';
import {
  checkUrl,
  parseAllowedHosts,
  phaseClock,
  RpcClient,
  type ConversionFiles,
  type FetchPolicy,
  type Logger,
} from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiAnswerOrFile, ApiErrors } from '../http/api-docs.js';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { OAuthScope } from '../oauth/oauth-scope.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { FILE_STORE } from './file-store.provider.js';
import { JobWaiter, type Wait } from './job-waiter.js';
import { receivedAt } from '../http/request-context.js';
import type { StoredUpload } from './object-store-storage.js';

/** The gateway's logger, for the phases of a conversion answer. */
export const CONVERSION_LOGGER = Symbol('CONVERSION_LOGGER');

/** States a job does not leave. */
const FINAL_STATES = new Set(['completed', 'failed', 'cancelled', 'expired']);

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Answers a completed job's converted file (its media type, size and name) on `res`. */
function fileAnswer(res: Response, output: NonNullable<ConversionJobView['output']>, stored: Readable): StreamableFile {
  res.status(200);
  res.setHeader('content-type', output.mediaType);
  res.setHeader('content-length', String(output.size));
  res.setHeader('content-disposition', contentDisposition(output.filename));
  res.setHeader('cache-control', 'private, no-store');
  return new StreamableFile(stored);
}

/** The options of a request, without the fields that are not options. */
function optionsOf(body: ConvertUploadDto): ConversionOptions {
  const { width, height, quality, background, firstPage, lastPage, dpi } = body;
  return Object.fromEntries(
    Object.entries({ width, height, quality, background, firstPage, lastPage, dpi }).filter(([, v]) => v !== undefined),
  ) as ConversionOptions;
}

function checkPair(format: SourceFormat, to: string): void {
  const problem = pairProblem(format, to);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
}

/**
 * /v1/convert: files and URLs converted by the conversion service's workers. Every call needs a
 * bearer token; a job belongs to the account that created it, and anyone else's job answers 404
 * exactly like one that does not exist.
 */
@ApiTags('conversion')
@ApiBearerAuth()
@UseGuards(BearerGuard)
@OAuthScope('convert')
@Controller('v1/convert')
export class ConversionController {
  private readonly policy: FetchPolicy;

  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(FILE_STORE) private readonly files: ConversionFiles,
    @Inject(JobWaiter) private readonly waiter: JobWaiter,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(CONVERSION_LOGGER) private readonly logger: Logger,
  ) {
    this.policy = {
      allowedHosts: parseAllowedHosts(config.FETCH_ALLOWED_HOSTS),
      maxBytes: config.FETCH_MAX_BYTES,
      timeoutMs: config.FETCH_TIMEOUT_MS,
      maxRedirects: 5,
    };
  }

  @Get('formats')
  @ApiOperation({
    summary: 'The source formats the running workers can convert now, with the targets each can become',
    description:
      'A format whose engine (LibreOffice, Chromium, pdftoppm, libvips) no live worker has is left out, and `engines.missing` names that engine; a job for it answers 503 ENGINE_UNAVAILABLE. While no worker is live at all, every format is listed (jobs wait in the queue for one).',
  })
  @ApiAnswer(200, 'ConversionFormats')
  @ApiErrors('UNAVAILABLE')
  async formats(): Promise<{ success: true; formats: SourceFormat[]; targets: TargetFormat[]; engines: EngineStatus }> {
    const engines = await this.rpc.send(SUBJECTS.conversion.engines, {});
    return { success: true, formats: formatsWithEngines(engines), targets: Object.values(TARGET_FORMATS), engines };
  }

  @Post('upload')
  @HttpCode(202)
  @UseInterceptors(FileInterceptor('file'))
  @ApiOperation({
    summary:
      'Queue a conversion of an uploaded file; answers 202 with the job to poll (or, with respond=file, the converted file once done)',
    description: `The file streams into storage; 429 QUEUE_FULL (with Retry-After) when the queue is full; 503 ENGINE_UNAVAILABLE (naming the engine) when no running worker can convert this format; 400 names what the source can become when the pair is not supported. With wait=N (up to ${JOB_WAIT_MAX_SECONDS} s), the answer waits until the job has finished or N seconds have passed, as GET /v1/convert/jobs/{id}?wait=N does: a small file's answer then usually says completed, and its result can be downloaded at once. With respond=file as well, a job that completes within the wait is answered with its converted file itself (200, the headers of GET /v1/convert/jobs/{id}/result, and X-Conversion-Job naming the job): one request instead of two; a job that failed or is still running is answered as without it (202 with the job).`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'to'],
      properties: {
        file: { type: 'string', format: 'binary' },
        to: { type: 'string', enum: [...CONVERSION_TARGETS] },
        from: { type: 'string', description: "The file's format when its name and type do not tell it" },
        width: { type: 'integer', minimum: 1, maximum: 10000 },
        height: { type: 'integer', minimum: 1, maximum: 10000 },
        quality: { type: 'integer', minimum: 1, maximum: 100 },
        background: { type: 'string' },
        firstPage: { type: 'integer', minimum: 1 },
        lastPage: { type: 'integer', minimum: 1 },
        dpi: { type: 'integer', minimum: 36, maximum: 600 },
      },
    },
  })
  @ApiAnswerOrFile(
    202,
    'ConversionJob',
    'Queued: poll GET /v1/convert/jobs/{id} (with wait, it may have finished already)',
    200,
    'With respond=file: the converted file of a job that completed within the wait (its media type; Content-Disposition names it; X-Conversion-Job names the job)',
  )
  @ApiErrors('QUEUE_FULL', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'ENGINE_UNAVAILABLE')
  @ApiCreateIdempotencyKey()
  async upload(
    @CurrentSession() session: AuthenticatedSession,
    @UploadedFile() file: (Express.Multer.File & Partial<StoredUpload>) | undefined,
    @Body() body: ConvertUploadDto,
    @Query() query: ConvertUploadQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @IdempotencyKey() key: string | undefined,
  ): Promise<{ success: true; job: ConversionJobView } | StreamableFile> {
    if (!file?.jobId) throw new AppError('VALIDATION_FAILED', 'file is required (multipart field "file")');
    if (query.respond === 'file' && !query.wait) {
      await this.files.delete(conversionInputKey(file.jobId)).catch(() => undefined);
      throw new AppError(
        'VALIDATION_FAILED',
        `respond=file needs wait=N (1 to ${JOB_WAIT_MAX_SECONDS} seconds): the file is answered once the job has finished`,
      );
    }
    const jobId = file.jobId;
    // Where the answer's time goes once the file is stored (the request's log line has the whole).
    const clock = phaseClock();
    const drop = () => this.files.delete(conversionInputKey(jobId)).catch(() => undefined);
    // Waiting begins before the job is queued, so a job that finishes at once is not missed.
    let wait = this.waiter.begin(jobId, (query.wait ?? 0) * 1000);
    let job: ConversionJobView;
    try {
      const size = file.size ?? 0;
      if (size === 0) throw new AppError('VALIDATION_FAILED', 'file is empty');
      const filename = Buffer.from(file.originalname, 'latin1').toString('utf8').slice(0, 255) || 'upload';
      const format = body.from ? sourceFormat(body.from === 'jpeg' ? 'jpg' : body.from) : detectSourceFormat(filename, file.mimetype);
      if (!format) {
        throw new AppError(
          'VALIDATION_FAILED',
          `the format of ${filename} is not one this service converts; name it with its extension or give from (GET /v1/convert/formats)`,
        );
      }
      checkPair(format, body.to);
      job = await this.rpc.send(SUBJECTS.conversion.jobCreate, {
        id: jobId,
        ownerId: session.userId,
        from: format.id,
        to: body.to,
        source: {
          kind: 'upload',
          filename,
          mediaType: /^[\w.+-]+\/[\w.+-]+$/.test(file.mimetype) ? file.mimetype : 'application/octet-stream',
          size,
        },
        options: optionsOf(body),
        ...withKey(key),
      });
      clock.mark('create');
    } catch (error) {
      wait?.cancel();
      await drop();
      throw error;
    }
    if (job.id !== jobId) {
      // A retry under its Idempotency-Key: the first request's job is the answer, this copy of the file goes.
      wait?.cancel();
      await drop();
      wait = FINAL_STATES.has(job.state) ? undefined : this.waiter.begin(job.id, (query.wait ?? 0) * 1000);
      if (wait) job = await this.rpc.send(SUBJECTS.conversion.jobGet, { id: job.id, ownerId: session.userId });
    }
    const settled = await this.settle(job, session.userId, wait, req);
    clock.mark('wait');
    // The answer's log line: its phases, and when the request and its clock began (to line up with the services' lines).
    const answered = () => ({
      jobId: settled.id,
      to: settled.to,
      state: settled.state,
      upload: file.uploadMs,
      ms: clock.ms,
      at: clock.at,
      receivedAt: receivedAt(res),
    });
    if (query.respond === 'file' && settled.state === 'completed' && settled.output) {
      const stored = await this.files.open(conversionOutputKey(settled.id));
      clock.mark('open');
      if (stored) {
        this.logger.info(answered(), 'conversion answered');
        res.setHeader('x-conversion-job', settled.id);
        return fileAnswer(res, settled.output, stored);
      }
    }
    this.logger.info(answered(), 'conversion answered');
    return { success: true, job: settled };
  }

  /**
   * The job once `wait` is over (it finished, or the time is up): read again unless it had finished
   * already, or its announcement carried it (as its worker recorded it), or the client went away
   * meanwhile (its connection closed, which also ends the wait).
   */
  private async settle(job: ConversionJobView, ownerId: string, wait: Wait | undefined, req: Request): Promise<ConversionJobView> {
    if (!wait) return job;
    try {
      if (FINAL_STATES.has(job.state)) return job;
      const socket = req.socket;
      socket.once('close', wait.cancel);
      let finished: ConversionJobView | undefined;
      try {
        finished = await wait.done;
      } finally {
        socket.off('close', wait.cancel);
      }
      if (finished?.id === job.id) return finished;
      return socket.destroyed ? job : await this.rpc.send(SUBJECTS.conversion.jobGet, { id: job.id, ownerId });
    } finally {
      wait.cancel();
    }
  }

  @Post('fetch')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queue a conversion of a URL: a web page to PDF or PNG (from "url"), or a file on the web by its format',
    description:
      'The URL must be http or https and outside this network (403 URL_NOT_ALLOWED otherwise, checked now and again by the worker on every redirect). Without from, the format is found once fetched: an HTML page is rendered, a file is converted by its type.',
  })
  @ApiAnswer(202, 'ConversionJob', 'Queued: poll GET /v1/convert/jobs/{id}')
  @ApiErrors('URL_NOT_ALLOWED', 'QUEUE_FULL', 'RATE_LIMITED', 'ENGINE_UNAVAILABLE')
  @ApiCreateIdempotencyKey()
  async fetch(
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: ConvertFetchDto,
    @IdempotencyKey() key: string | undefined,
  ): Promise<{ success: true; job: ConversionJobView }> {
    const from = body.from ? sourceFormat(body.from === 'jpeg' ? 'jpg' : body.from) : undefined;
    if (from) checkPair(from, body.to);
    await checkUrl(body.url, this.policy);
    const job = await this.rpc.send(SUBJECTS.conversion.jobCreate, {
      id: randomUUID(),
      ownerId: session.userId,
      from: from?.id ?? 'auto',
      to: body.to,
      source: { kind: 'url', url: body.url, ...(body.headers ? { headers: body.headers } : {}) },
      options: optionsOf(body),
      ...withKey(key),
    });
    return { success: true, job };
  }

  @Get('jobs')
  @ApiOperation({ summary: "The caller's conversion jobs, newest first (offset, limit; total in the body)" })
  @ApiAnswer(200, 'ConversionJobs')
  async jobs(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: ListQueryDto,
  ): Promise<{ success: true } & ConversionJobList> {
    const list = await this.rpc.send(SUBJECTS.conversion.jobList, {
      ownerId: session.userId,
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    return { success: true, ...list };
  }

  @Get('jobs/:id')
  @ApiOperation({
    summary: 'State, progress in percent and error of a conversion job',
    description: `With wait=N (up to ${JOB_WAIT_MAX_SECONDS} s), the answer waits until the job has finished or N seconds have passed (a long poll, instead of polling).`,
  })
  @ApiAnswer(200, 'ConversionJob')
  @ApiErrors('NOT_FOUND')
  async job(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: JobIdParamDto,
    @Query() query: JobWaitQueryDto,
    @Req() req: Request,
  ): Promise<{ success: true; job: ConversionJobView }> {
    // Waiting begins before the first read, so a job that finishes in between is not missed.
    const wait = this.waiter.begin(params.id, (query.wait ?? 0) * 1000);
    let job: ConversionJobView;
    try {
      job = await this.rpc.send(SUBJECTS.conversion.jobGet, { id: params.id, ownerId: session.userId });
    } catch (error) {
      wait?.cancel();
      throw error;
    }
    return { success: true, job: await this.settle(job, session.userId, wait, req) };
  }

  @Get('jobs/:id/result')
  @ApiOperation({ summary: 'Download the converted file of a completed job (410 EXPIRED once its time is up)' })
  @ApiResponse({
    status: 200,
    description: 'The converted file (its media type; Content-Disposition names it)',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'EXPIRED', 'UNPROCESSABLE')
  async result(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: JobIdParamDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const job = await this.rpc.send(SUBJECTS.conversion.jobGet, { id: params.id, ownerId: session.userId });
    if (job.state === 'failed') throw new AppError('UNPROCESSABLE', job.error ?? 'the conversion failed');
    if (job.state === 'expired') throw new AppError('EXPIRED', `the result expired at ${job.expires}; convert the file again`);
    if (job.state === 'cancelled') throw new AppError('CONFLICT', 'the job was cancelled');
    if (job.state !== 'completed' || !job.output) throw new AppError('CONFLICT', `the job is ${job.state}; try again when it is completed`);
    const stored = await this.files.open(conversionOutputKey(job.id));
    if (!stored) throw new AppError('EXPIRED', 'the converted file is no longer stored; convert the file again');
    return fileAnswer(res, job.output, stored);
  }

  @Delete('jobs/:id')
  @ApiOperation({ summary: 'Cancel a job that has not finished, or delete a finished one (its files go either way)' })
  @ApiAnswer(200, 'ConversionJobStopped')
  @ApiErrors('NOT_FOUND')
  async remove(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: JobIdParamDto,
  ): Promise<{ success: true; state: 'cancelled' | 'deleted' }> {
    const answer = await this.rpc.send(SUBJECTS.conversion.jobDelete, { id: params.id, ownerId: session.userId });
    // Whoever waits for it on this gateway learns at once (elsewhere, when their wait is up).
    this.waiter.wake(params.id);
    return answer;
  }
}
