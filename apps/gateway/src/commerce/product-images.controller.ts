import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  PRODUCT_IMAGE_SIZES,
  ProductIdParamsDto,
  ProductImageFileParamsDto,
  ProductImageVersionParamsDto,
  SUBJECTS,
  type ProductImageData,
  type ResponseMap,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import type { Request, Response } from 'express';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { RateLimit } from '../http/rate-limit.js';
import { COMMERCE_LIMITS } from '../http/rate-limits.js';
import { uploadOptions } from '../http/uploads.js';
import { PRODUCT_UPLOAD_MAX_BYTES, prepareProductImage } from './product-images.js';

const SIZES = Object.entries(PRODUCT_IMAGE_SIZES)
  .map(([name, width]) => `${name} ${width}`)
  .join(', ');

/** Resizing can take a moment on a busy machine: storing waits longer than the default deadline. */
const STORE_TIMEOUT_MS = 10_000;

/**
 * Product images stored by the site (issue 29): the owner uploads one (resized here with sharp into its
 * sizes, stored by commerce in one piece) or removes it; anyone reads the sizes, under versioned URLs
 * that never change their content (a replaced image gets new ones; the old ones answer 404).
 * Another user's product answers 404 exactly like a missing one.
 */
@ApiTags('services')
@Controller('v1/products')
export class ProductImagesController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post(':id/image')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @UseInterceptors(FileInterceptor('image', uploadOptions(PRODUCT_UPLOAD_MAX_BYTES)))
  @RateLimit(COMMERCE_LIMITS.productImage)
  @ApiOperation({
    summary: 'Upload (or replace) your product\'s image: multipart with the file "image"',
    description:
      `PNG, JPEG, WebP or GIF (judged by its bytes) up to ${PRODUCT_UPLOAD_MAX_BYTES / 1024 / 1024} MiB (413 above); a damaged file, ` +
      `one that is not an image or one declaring more than 50 megapixels answers 400. It is turned upright (EXIF), stripped of its ` +
      `metadata and made into WebP sizes fitted inside these widths, never enlarged: ${SIZES}. The new sizes replace the old ones ` +
      'together and replace an https image URL; the product view carries their versioned URLs (image: the medium one).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['image'],
      properties: { image: { type: 'string', format: 'binary', description: 'The image (PNG, JPEG, WebP or GIF)' } },
    },
  })
  @ApiAnswer(200, 'Product')
  @ApiErrors('NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  async upload(
    @Param() params: ProductIdParamsDto,
    @CurrentSession() session: AuthenticatedSession,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<ResponseMap['Product']> {
    if (!file) throw new AppError('VALIDATION_FAILED', 'send the image as the multipart file "image"');
    const variants = await prepareProductImage(file.buffer);
    const message = {
      ownerId: session.userId,
      productId: params.id,
      variants: variants.map((v) => ({ size: v.size, width: v.width, height: v.height, data: v.webp.toString('base64') })),
    };
    return { success: true, product: await this.rpc.send(SUBJECTS.commerce.productImageStore, message, STORE_TIMEOUT_MS) };
  }

  @Delete(':id/image')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Remove your product's uploaded image (every size)" })
  @ApiAnswer(200, 'Product')
  @ApiErrors('NOT_FOUND')
  async remove(@Param() params: ProductIdParamsDto, @CurrentSession() session: AuthenticatedSession): Promise<ResponseMap['Product']> {
    const product = await this.rpc.send(SUBJECTS.commerce.productImageDelete, { ownerId: session.userId, productId: params.id });
    return { success: true, product };
  }

  @Get(':id/image/:size')
  @ApiOperation({
    summary: "One size of a product's current image (WebP; revalidated with its ETag: order pages use it)",
  })
  @ApiResponse({ status: 200, description: 'The image', content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors('NOT_FOUND')
  async current(@Param() params: ProductImageFileParamsDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const image = await this.rpc.send(SUBJECTS.commerce.productImageGet, { productId: params.id, size: params.size });
    send(req, res, image, 'public, no-cache');
  }

  @Get(':id/image/:version/:size')
  @ApiOperation({ summary: "One size of a product's image by its version (from the product view): WebP, cached for good" })
  @ApiResponse({ status: 200, description: 'The image', content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors('NOT_FOUND')
  async versioned(@Param() params: ProductImageVersionParamsDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const image = await this.rpc.send(SUBJECTS.commerce.productImageGet, {
      productId: params.id,
      size: params.size,
      version: params.version,
    });
    send(req, res, image, 'public, max-age=31536000, immutable');
  }
}

/** The image with a strong ETag (its SHA-256); 304 when the browser holds it already. */
function send(req: Request, res: Response, image: ProductImageData, cacheControl: string): void {
  const etag = `"${image.etag}"`;
  res.setHeader('etag', etag);
  res.setHeader('cache-control', cacheControl);
  res.setHeader('x-content-type-options', 'nosniff');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    res.status(304).end();
    return;
  }
  const bytes = Buffer.from(image.data, 'base64');
  res.status(200);
  res.setHeader('content-type', image.contentType);
  res.setHeader('content-length', String(bytes.length));
  res.end(bytes);
}
