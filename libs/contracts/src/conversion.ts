import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { IMAGE_TARGETS, type ImageTarget } from './conversion-views.js';
import { Optional } from './input.js';

/** Gateway → conversion: a file already stored in the object store, to be converted. */
export class CreateConversionJobDto {
  @IsUUID('4')
  id!: string;

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

  @IsIn(IMAGE_TARGETS)
  to!: ImageTarget;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(10000)
  width?: number;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(10000)
  height?: number;
}

export class GetConversionJobDto {
  @IsUUID('4')
  id!: string;
}

/** Object store bucket shared by the gateway (uploads, downloads) and the workers. */
export const CONVERSION_BUCKET = 'conversion-files';
export const conversionInputKey = (id: string): string => `in/${id}`;
export const conversionOutputKey = (id: string): string => `out/${id}`;
export const CONVERSION_QUEUE = 'conversion';

/** HTTP: the fields of POST /v1/convert/upload besides the file. */
export class ConvertUploadDto {
  @ApiProperty({ enum: IMAGE_TARGETS, description: 'Output format' })
  @IsIn(IMAGE_TARGETS, { message: `to must be one of ${IMAGE_TARGETS.join(', ')}` })
  to!: ImageTarget;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 10000,
    description: 'Output width in pixels (keeps the aspect ratio when height is not given)',
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10000)
  width?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 10000, description: 'Output height in pixels' })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10000)
  height?: number;
}

export class JobIdParamDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}
