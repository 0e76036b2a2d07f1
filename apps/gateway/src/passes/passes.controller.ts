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
  Res,
  UploadedFiles,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileFieldsInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  LIST_COUNT_HEADER,
  ListPassesQueryDto,
  PASS_IMAGE_ID,
  PASS_IMAGE_SLOTS,
  PassFieldsDto,
  PassFormDto,
  PassParamsDto,
  SUBJECTS,
  type PassImageSlot,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { create as contentDisposition } from 'content-disposition';
import type { Response } from 'express';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { OAuthScope } from '../oauth/oauth-scope.js';
import { ApiAnswer, ApiErrors, ApiNoContent } from '../http/api-docs.js';
import { RateLimit } from '../http/rate-limit.js';
import { PASS_LIMITS } from '../http/rate-limits.js';
import { uploadOptions } from '../http/uploads.js';
import { httpValidationPipe } from '../http/validation.js';
import { PASS_UPLOAD_MAX_BYTES, preparePassImage } from './pass-images.js';

type PassFiles = Partial<Record<PassImageSlot, Express.Multer.File[]>>;

/** The multipart limits of a pass: two image files at most (kept in memory: they are decoded at once). */
const base = uploadOptions(PASS_UPLOAD_MAX_BYTES);
const PASS_UPLOAD = { ...base, limits: { ...base.limits, files: 2, fields: 4 } };

/** A signed .pkpass can take a moment (images resized, the manifest signed): longer than the default deadline. */
const APPLE_TIMEOUT_MS = 10_000;

const validation = httpValidationPipe();

/** The pass fields of the multipart field "pass": JSON, checked with the same DTO the service checks. */
async function passFields(json: string): Promise<PassFieldsDto> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AppError('MALFORMED_JSON', 'the field "pass" is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError('VALIDATION_FAILED', 'the field "pass" must be a JSON object of the pass fields');
  }
  return (await validation.transform(parsed, { type: 'body', metatype: PassFieldsDto })) as PassFieldsDto;
}

/**
 * Wallet passes (issue 19): a user's pass designs, saved by the id the page chose, and what Google
 * Wallet (a save link) and Apple Wallet (a signed .pkpass) make of them. Another user's pass answers
 * 404 exactly like a missing one. Images are public (Google fetches them) under content-derived names.
 */
@ApiTags('passes')
@Controller('v1/passes')
export class PassesController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get('google')
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @ApiOperation({
    summary: 'Your passes (limit, offset, sort: created | modified | cardTitle | header, dir: ASC | DESC; newest first by default)',
    description: 'The total is in the body and in the x-list-count response header.',
  })
  @ApiAnswer(200, 'Passes')
  async list(
    @CurrentSession() session: AuthenticatedSession,
    @Query() query: ListPassesQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ResponseMap['Passes']> {
    const list = await this.rpc.send(SUBJECTS.terminals.passList, { ...query, userId: session.userId });
    res.setHeader(LIST_COUNT_HEADER, String(list.total));
    return { success: true, ...list };
  }

  @Get('wallets')
  @ApiOperation({ summary: 'Which wallets this server makes passes for, and the configuration each still lacks' })
  @ApiAnswer(200, 'WalletConfig')
  async wallets(): Promise<JsonBody<ResponseMap['WalletConfig']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.terminals.walletConfig, {}));
  }

  @Get('images/:file')
  @ApiOperation({ summary: 'A pass image (public: Google Wallet fetches it), PNG, cached for good (its name changes with its content)' })
  @ApiResponse({ status: 200, description: 'The image', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors('NOT_FOUND')
  async image(@Param('file') file: string, @Res() res: Response): Promise<void> {
    const imageId = /^(.+)\.png$/.exec(file)?.[1];
    if (!imageId || !PASS_IMAGE_ID.test(imageId)) throw new AppError('NOT_FOUND', 'no such image');
    const image = await this.rpc.send(SUBJECTS.terminals.passImageGet, { imageId });
    const bytes = Buffer.from(image.data, 'base64');
    res.status(200);
    res.setHeader('content-type', image.type);
    res.setHeader('content-length', String(bytes.length));
    res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    res.setHeader('etag', `"${image.id}"`);
    // Wallet apps and other sites show these images: not only this origin.
    res.setHeader('cross-origin-resource-policy', 'cross-origin');
    res.end(bytes);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @UseInterceptors(
    FileFieldsInterceptor(
      [
        { name: 'logo', maxCount: 1 },
        { name: 'hero', maxCount: 1 },
      ],
      PASS_UPLOAD,
    ),
  )
  @RateLimit(PASS_LIMITS.save)
  @ApiOperation({
    summary: 'Create (201) or replace (200) your pass with this id: multipart with "pass" (the fields as JSON), files "logo" and "hero"',
    description:
      `Images: PNG, JPEG, WebP or GIF up to ${PASS_UPLOAD_MAX_BYTES / 1024 / 1024} MiB (413 above), resized to fit ` +
      `${PASS_IMAGE_SLOTS.logo.width}x${PASS_IMAGE_SLOTS.logo.height} (logo) and ${PASS_IMAGE_SLOTS.hero.width}x${PASS_IMAGE_SLOTS.hero.height} (hero) and stored as PNG. ` +
      'An image not sent stays as stored; "remove" drops stored ones (logo, hero). Another account\'s id answers 404.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['pass'],
      properties: {
        pass: {
          type: 'string',
          description:
            'The pass fields as JSON: {cardTitle, header, subheader?, textRows: [{header, body}], barcode?: {type, value, alternateText?}, backgroundColor}',
        },
        logo: { type: 'string', format: 'binary', description: 'The logo (PNG, JPEG, WebP or GIF)' },
        hero: { type: 'string', format: 'binary', description: 'The hero image (PNG, JPEG, WebP or GIF)' },
        remove: { type: 'string', description: 'Stored images to drop: logo, hero, or logo,hero' },
      },
    },
  })
  @ApiAnswer(201, 'Pass', 'Created')
  @ApiAnswer(200, 'Pass', 'Replaced')
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  async save(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: PassParamsDto,
    @Body() body: PassFormDto,
    @UploadedFiles() files: PassFiles | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ResponseMap['Pass']> {
    const fields = await passFields(body.pass);
    const remove = new Set((body.remove ?? '').split(',').map((s) => s.trim()));
    const images: Partial<Record<PassImageSlot, string | null>> = {};
    for (const slot of ['logo', 'hero'] as const) {
      const file = files?.[slot]?.[0];
      if (file && remove.has(slot)) throw new AppError('VALIDATION_FAILED', `${slot} is both sent and removed: do one of them`);
      if (remove.has(slot)) images[slot] = null;
      if (!file) continue;
      const prepared = await preparePassImage(slot, file.buffer);
      // Each image in its own message (NATS carries at most 1 MiB), before the save that references it.
      const stored = await this.rpc.send(SUBJECTS.terminals.passImageStore, {
        userId: session.userId,
        data: prepared.png.toString('base64'),
      });
      images[slot] = stored.id;
    }
    const saved = await this.rpc.send(SUBJECTS.terminals.passSave, {
      ...fields,
      ...images,
      userId: session.userId,
      passId: params.id,
    });
    res.status(saved.created ? 201 : 200);
    return { success: true, pass: saved.pass };
  }

  @Get(':id')
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @ApiOperation({ summary: 'One of your passes' })
  @ApiAnswer(200, 'Pass')
  @ApiErrors('NOT_FOUND')
  async get(@CurrentSession() session: AuthenticatedSession, @Param() params: PassParamsDto): Promise<JsonBody<ResponseMap['Pass']>> {
    return JsonBody.successWith(
      'pass',
      await this.rpc.passThrough(SUBJECTS.terminals.passGet, { userId: session.userId, passId: params.id }),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @ApiOperation({ summary: 'Delete a pass with its images (204)' })
  @ApiNoContent()
  @ApiErrors('NOT_FOUND')
  async remove(@CurrentSession() session: AuthenticatedSession, @Param() params: PassParamsDto): Promise<void> {
    await this.rpc.send(SUBJECTS.terminals.passDelete, { userId: session.userId, passId: params.id });
  }

  @Get(':id/google')
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @ApiOperation({
    summary: 'The "Save to Google Wallet" link of a pass, with its GenericClass and GenericObject JSON',
    description:
      'Without an issuer and service account on the server: configured false, saveUrl null, missing naming the variables, and the JSON still (with ISSUER_ID in place of an issuer id when none is set).',
  })
  @ApiAnswer(200, 'PassGoogle')
  @ApiErrors('NOT_FOUND')
  async google(
    @CurrentSession() session: AuthenticatedSession,
    @Param() params: PassParamsDto,
  ): Promise<JsonBody<ResponseMap['PassGoogle']>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.terminals.passGoogle, { userId: session.userId, passId: params.id }));
  }

  @Get(':id/apple')
  @ApiBearerAuth()
  @UseGuards(BearerGuard)
  @OAuthScope('passes')
  @RateLimit(PASS_LIMITS.apple)
  @ApiOperation({
    summary: 'The signed Apple Wallet pass (.pkpass) of a pass',
    description:
      '503 UNAVAILABLE names the variables to set when the server has no Pass Type ID certificate; 422 UNPROCESSABLE when the barcode is one Apple Wallet does not show (it shows qrcode, pdf417, azteccode, code128).',
  })
  @ApiResponse({
    status: 200,
    description: 'The .pkpass (an attachment)',
    content: { 'application/vnd.apple.pkpass': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors('NOT_FOUND', 'UNPROCESSABLE')
  async apple(@CurrentSession() session: AuthenticatedSession, @Param() params: PassParamsDto, @Res() res: Response): Promise<void> {
    const pkpass = await this.rpc.send(SUBJECTS.terminals.passApple, { userId: session.userId, passId: params.id }, APPLE_TIMEOUT_MS);
    const bytes = Buffer.from(pkpass.data, 'base64');
    res.status(200);
    res.setHeader('content-type', 'application/vnd.apple.pkpass');
    res.setHeader('content-length', String(bytes.length));
    res.setHeader('content-disposition', contentDisposition(pkpass.filename, { type: 'attachment' }));
    res.setHeader('cache-control', 'private, no-store');
    res.end(bytes);
  }
}
