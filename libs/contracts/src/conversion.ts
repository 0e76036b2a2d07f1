import { IdempotencyKeyField } from './idempotency.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { CONVERSION_TARGETS, type ConversionTarget } from './conversion-views.js';
import { SOURCE_FORMATS } from './conversion-formats.js';
import { FetchHeaders, FetchUrl, IsHeaderMap } from './fetch.js';
import { Optional } from './input.js';

const SOURCE_IDS = [...SOURCE_FORMATS.map((f) => f.id), 'jpeg'];
const COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]{5,40}\))$/;

/** The options of a conversion (multipart fields of an upload, or JSON fields of a fetch). */
export class ConversionOptionsDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 10000, description: 'Images: output width in pixels (fits inside, never enlarges)' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'width must be a whole number' })
  @Min(1)
  @Max(10000)
  width?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 10000, description: 'Images: output height in pixels' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'height must be a whole number' })
  @Min(1)
  @Max(10000)
  height?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, description: 'Images to JPEG, WebP or AVIF: quality' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'quality must be a whole number from 1 to 100' })
  @Min(1, { message: 'quality must be a whole number from 1 to 100' })
  @Max(100, { message: 'quality must be a whole number from 1 to 100' })
  quality?: number;

  @ApiPropertyOptional({ example: '#ffffff', description: 'Images: colour behind transparency (CSS hex, name or rgb())' })
  @Optional()
  @IsString()
  @Matches(COLOUR, { message: 'background must be a colour such as #ffffff, white or rgb(255,255,255)' })
  background?: string;

  @ApiPropertyOptional({ minimum: 1, description: 'PDF to images: first page (1-based)' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'firstPage must be a whole number' })
  @Min(1)
  @Max(100_000)
  firstPage?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'PDF to images: last page' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'lastPage must be a whole number' })
  @Min(1)
  @Max(100_000)
  lastPage?: number;

  @ApiPropertyOptional({ minimum: 36, maximum: 600, description: 'PDF to images: resolution in dots per inch (default 150)' })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'dpi must be a whole number from 36 to 600' })
  @Min(36, { message: 'dpi must be a whole number from 36 to 600' })
  @Max(600, { message: 'dpi must be a whole number from 36 to 600' })
  dpi?: number;
}

/** HTTP: the fields of POST /v1/convert/upload besides the file. */
export class ConvertUploadDto extends ConversionOptionsDto {
  @ApiProperty({ enum: CONVERSION_TARGETS, description: 'Output format (GET /v1/convert/formats lists what each source can become)' })
  @IsIn(CONVERSION_TARGETS, { message: `to must be one of ${CONVERSION_TARGETS.join(', ')}` })
  to!: ConversionTarget;

  @ApiPropertyOptional({ enum: SOURCE_IDS, description: "The file's format; found from its name or type when absent" })
  @Optional()
  @IsIn(SOURCE_IDS, { message: `from must be one of ${SOURCE_IDS.join(', ')}` })
  from?: string;
}

/** HTTP: POST /v1/convert/fetch {url, from, to, headers} (docs/api.md#conversion-files-and-urls) */
export class ConvertFetchDto extends ConvertUploadDto {
  @FetchUrl('https://example.com/report.docx')
  url!: string;

  @FetchHeaders()
  headers?: Record<string, string>;
}

/** The source of a job: a file the gateway stored, or a URL the worker fetches. */
export class UploadSourceDto {
  @IsIn(['upload'])
  kind!: 'upload';

  @IsString()
  @MaxLength(255)
  filename!: string;

  @IsString()
  @MaxLength(255)
  @Matches(/^[\w.+-]+\/[\w.+-]+$/, { message: 'mediaType must be a media type such as image/png' })
  mediaType!: string;

  @IsInt()
  @Min(1)
  size!: number;
}

export class UrlSourceDto {
  @IsIn(['url'])
  kind!: 'url';

  @IsString()
  @MaxLength(2048)
  url!: string;

  @Optional()
  @IsHeaderMap()
  headers?: Record<string, string>;
}

/** NATS: conversion.job.create (gateway → conversion) */
export class CreateConversionJobMessage {
  @IsUUID('4')
  id!: string;

  @IsUUID('4')
  ownerId!: string;

  /** A source format id, or `auto` for a URL whose format is known once fetched. */
  @IsIn([...SOURCE_IDS, 'auto'])
  from!: string;

  @IsIn(CONVERSION_TARGETS)
  to!: ConversionTarget;

  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { value: UploadSourceDto, name: 'upload' },
        { value: UrlSourceDto, name: 'url' },
      ],
    },
    keepDiscriminatorProperty: true,
  })
  source!: UploadSourceDto | UrlSourceDto;

  @ValidateNested()
  @Type(() => ConversionOptionsDto)
  options!: ConversionOptionsDto;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** NATS: conversion.job.get and conversion.job.delete (only the owner's jobs exist for them) */
export class OwnedJobMessage {
  @IsUUID('4')
  id!: string;

  @IsUUID('4')
  ownerId!: string;
}

/** HTTP: GET /v1/convert/jobs?offset&limit */
export class ListQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be a whole number' })
  @Min(0, { message: 'offset must be 0 or more' })
  @Max(1_000_000)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be from 1 to 100' })
  @Max(100, { message: 'limit must be from 1 to 100' })
  limit?: number;
}

/** NATS: conversion.job.list */
export class ListJobsMessage extends ListQueryDto {
  @IsUUID('4')
  ownerId!: string;
}

/** Object store bucket shared by the gateway (uploads, downloads) and the workers. */
export const CONVERSION_BUCKET = 'conversion-files';
export const conversionInputKey = (id: string): string => `in/${id}`;
export const conversionOutputKey = (id: string): string => `out/${id}`;
export const CONVERSION_QUEUE = 'conversion';

export class JobIdParamDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

/** Longest a GET of a job may wait for it to finish, in seconds. */
export const JOB_WAIT_MAX_SECONDS = 30;

/** HTTP: GET /v1/convert/jobs/{id}?wait=N */
export class JobWaitQueryDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: JOB_WAIT_MAX_SECONDS,
    default: 0,
    description: 'Seconds to wait for the job to finish before answering (long poll); 0 answers at once',
  })
  @Optional()
  @Type(() => Number)
  @IsInt({ message: 'wait must be a whole number of seconds' })
  @Min(0, { message: `wait must be from 0 to ${JOB_WAIT_MAX_SECONDS} seconds` })
  @Max(JOB_WAIT_MAX_SECONDS, { message: `wait must be from 0 to ${JOB_WAIT_MAX_SECONDS} seconds` })
  wait?: number;
}

/** What POST /v1/convert/upload answers with: the job (202), or the converted file itself once done (200). */
export const UPLOAD_RESPONDS = ['job', 'file'] as const;

/** HTTP: POST /v1/convert/upload?wait=N&respond=file */
export class ConvertUploadQueryDto extends JobWaitQueryDto {
  @ApiPropertyOptional({
    enum: UPLOAD_RESPONDS,
    default: 'job',
    description:
      'file: when the job completes within wait, the answer is the converted file itself (200, as GET /v1/convert/jobs/{id}/result answers it); otherwise the job, as with job (202). Needs wait of 1 s or more.',
  })
  @Optional()
  @IsIn(UPLOAD_RESPONDS, { message: 'respond must be job or file' })
  respond?: (typeof UPLOAD_RESPONDS)[number];
}
