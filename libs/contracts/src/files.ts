import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
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

/** NATS: conversion.file.create */
export class CreateSavedFileMessage extends CreateSavedFileDto {
  @IsUUID('4')
  ownerId!: string;
}

/** NATS: conversion.file.{complete,download,delete} */
export class OwnedFileMessage {
  @IsUUID('4')
  id!: string;

  @IsUUID('4')
  ownerId!: string;
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
}

export class StorageGetQueryDto extends SignedQueryDto {
  @ApiProperty({ description: 'The name the download is offered under' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  filename!: string;
}
