import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IdempotencyKeyField } from './idempotency.js';
import { Optional } from './input.js';
import { ListQueryDto } from './conversion.js';

/** The object store bucket of saved files when no S3 bucket is configured. */
export const SAVED_FILES_BUCKET = 'saved-files';

/** Largest file a signed upload may declare (the configured FILES_MAX_BYTES may only lower it). */
export const SAVED_FILE_HARD_MAX_BYTES = 5 * 1024 ** 3;

const MEDIA_TYPE = /^[\w.+-]{1,127}\/[\w.+-]{1,127}$/;

/** HTTP: POST /v1/files — declares a file to save; answers the file (pending) and where to PUT it. */
export class CreateSavedFileDto {
  @ApiProperty({ maxLength: 255, example: 'report.pdf' })
  @IsString({ message: 'filename must be a text' })
  @MinLength(1, { message: 'filename is required' })
  @MaxLength(255, { message: 'filename may have at most 255 characters' })
  @Matches(/^[^/\\\p{Cc}]+$/u, { message: 'filename may not hold slashes or control characters' })
  filename!: string;

  @ApiPropertyOptional({ example: 'application/pdf', description: 'The media type the PUT will send (default application/octet-stream)' })
  @Optional()
  @IsString()
  @Matches(MEDIA_TYPE, { message: 'mediaType must be a media type such as image/png' })
  mediaType?: string;

  @ApiProperty({ minimum: 1, description: 'Exactly the number of bytes the PUT will send' })
  @Type(() => Number)
  @IsInt({ message: 'size must be a whole number of bytes' })
  @Min(1, { message: 'size must be at least 1 byte' })
  @Max(SAVED_FILE_HARD_MAX_BYTES, { message: `size may be at most ${SAVED_FILE_HARD_MAX_BYTES} bytes` })
  size!: number;
}

export class FileIdParamDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

/**
 * NATS: conversion.file.create. The gateway names the file (`id`) so that it can withdraw a declaration
 * whose answer it did not wait for (conversion.file.abandon), and says until when it waits (`deadline`,
 * Unix milliseconds): the service does not record a file it could only record later.
 */
export class CreateSavedFileMessage extends CreateSavedFileDto {
  @IsUUID('4')
  id!: string;

  @IsUUID('4')
  ownerId!: string;

  @Optional()
  @IsInt()
  @Min(0)
  deadline?: number;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** NATS: conversion.file.{complete,download,delete} */
export class OwnedFileMessage {
  @IsUUID('4')
  id!: string;

  @IsUUID('4')
  ownerId!: string;
}

/** The one-time token an upload URL of the site's own storage carries (base64url of 16 random bytes). */
const UPLOAD_NONCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * NATS: conversion.file.upload-begin — the gateway's storage received a PUT to an upload URL: the
 * declared file must still take it (pending, this URL's nonce, no upload yet and none under way);
 * the PUT is then written to the object `{ownerId}/{id}/{putId}`, a name no URL has been given for.
 */
export class FileUploadBeginMessage extends OwnedFileMessage {
  @Matches(UPLOAD_NONCE)
  nonce!: string;

  @IsUUID('4')
  putId!: string;
}

/** NATS: conversion.file.upload-end — the PUT `putId` ended: stored (its object becomes the file's bytes) or not. */
export class FileUploadEndMessage extends OwnedFileMessage {
  @IsUUID('4')
  putId!: string;

  @IsBoolean()
  stored!: boolean;
}

/** NATS: conversion.file.list */
export class ListFilesMessage extends ListQueryDto {
  @IsUUID('4')
  ownerId!: string;
}

/** HTTP: /v1/storage/{owner}/{file} — the site's own storage (when no S3 bucket is configured). */
export class StorageKeyParamDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'owner must be a UUID' })
  owner!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'file must be a UUID' })
  file!: string;
}

class SignedQueryDto {
  @ApiProperty({ description: 'Unix time (seconds) after which the URL no longer works' })
  @Type(() => Number)
  @IsInt({ message: 'expires must be a whole number' })
  @Min(0)
  expires!: number;

  @ApiProperty({ description: 'The media type the URL was signed for' })
  @IsString()
  @Matches(MEDIA_TYPE, { message: 'type must be a media type' })
  type!: string;

  @ApiProperty({ description: 'HMAC-SHA256 of the grant, base64url' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'signature is not a signature' })
  signature!: string;
}

export class StoragePutQueryDto extends SignedQueryDto {
  @ApiProperty({ description: 'Exactly the number of bytes the PUT must send' })
  @Type(() => Number)
  @IsInt({ message: 'size must be a whole number' })
  @Min(1)
  @Max(SAVED_FILE_HARD_MAX_BYTES)
  size!: number;

  @ApiProperty({ description: 'The one-time token of this upload URL (it works for one upload of a file not yet confirmed)' })
  @IsString()
  @Matches(UPLOAD_NONCE, { message: 'nonce is not an upload token' })
  nonce!: string;
}

export class StorageGetQueryDto extends SignedQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Which stored upload of the file (files saved before versions had none)' })
  @Optional()
  @IsUUID('4', { message: 'version must be a UUID' })
  version?: string;

  @ApiProperty({ description: 'The name the download is offered under' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  filename!: string;
}
