import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBase64,
  IsIn,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  HEX_COLOR,
  WALLET_BARCODE_TYPES,
  WALLET_PASS_LIMITS as LIMITS,
  type WalletBarcode,
  type WalletBarcodeType,
  type WalletPassFields,
  type WalletTextRow,
} from '@tinkerdesk/tools/wallet-pass';
import { ListQueryDto } from './conversion.js';
import { Optional } from './input.js';
import {
  PASS_IMAGE_ID,
  PASS_IMAGE_STORED_MAX_BYTES,
  PASS_SORTS,
  SORT_DIRECTIONS,
  type PassSort,
  type SortDirection,
} from './passes-views.js';

export class PassTextRowDto implements WalletTextRow {
  @ApiProperty({ maxLength: LIMITS.rowHeader, example: 'Member since' })
  @IsString({ message: 'textRows.header must be text' })
  @MaxLength(LIMITS.rowHeader, { message: `textRows.header may have at most ${LIMITS.rowHeader} characters` })
  header!: string;

  @ApiProperty({ minLength: 1, maxLength: LIMITS.rowBody, example: '2024' })
  @IsString({ message: 'textRows.body must be text' })
  @MinLength(1, { message: 'textRows.body must not be empty' })
  @MaxLength(LIMITS.rowBody, { message: `textRows.body may have at most ${LIMITS.rowBody} characters` })
  body!: string;
}

export class PassBarcodeDto implements WalletBarcode {
  @ApiProperty({ enum: WALLET_BARCODE_TYPES, description: 'A bwip-js symbology that Google Wallet shows' })
  @IsIn(WALLET_BARCODE_TYPES, { message: `barcode.type must be one of: ${WALLET_BARCODE_TYPES.join(', ')}` })
  type!: WalletBarcodeType;

  @ApiProperty({ minLength: 1, maxLength: LIMITS.barcodeValue })
  @IsString({ message: 'barcode.value must be text' })
  @MinLength(1, { message: 'barcode.value must not be empty' })
  @MaxLength(LIMITS.barcodeValue, { message: `barcode.value may have at most ${LIMITS.barcodeValue} characters` })
  value!: string;

  @ApiPropertyOptional({ maxLength: LIMITS.alternateText, description: 'Text shown under the barcode' })
  @Optional()
  @IsString({ message: 'barcode.alternateText must be text' })
  @MaxLength(LIMITS.alternateText, { message: `barcode.alternateText may have at most ${LIMITS.alternateText} characters` })
  alternateText?: string;
}

/**
 * The fields of a pass: the JSON of the multipart field "pass" of POST /v1/passes/{id} (checked at the
 * gateway), and the fields of the terminals.pass.save message (checked again in the service).
 */
export class PassFieldsDto implements WalletPassFields {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.cardTitle, example: 'Corner Café' })
  @IsString({ message: 'cardTitle must be text' })
  @MaxLength(LIMITS.cardTitle, { message: `cardTitle may have at most ${LIMITS.cardTitle} characters` })
  @Matches(/\S/, { message: 'cardTitle must not be empty' })
  cardTitle!: string;

  @ApiProperty({ minLength: 1, maxLength: LIMITS.header, example: 'Loyalty card' })
  @IsString({ message: 'header must be text' })
  @MaxLength(LIMITS.header, { message: `header may have at most ${LIMITS.header} characters` })
  @Matches(/\S/, { message: 'header must not be empty' })
  header!: string;

  @ApiPropertyOptional({ maxLength: LIMITS.subheader, description: 'A line above the header (empty: none)' })
  @Optional()
  @IsString({ message: 'subheader must be text' })
  @MaxLength(LIMITS.subheader, { message: `subheader may have at most ${LIMITS.subheader} characters` })
  subheader?: string;

  @ApiProperty({ type: [PassTextRowDto], maxItems: LIMITS.textRows })
  @IsArray({ message: 'textRows must be a list' })
  @ArrayMaxSize(LIMITS.textRows, { message: `textRows may have at most ${LIMITS.textRows} rows` })
  @IsObject({ each: true, message: 'each of textRows must be an object {header, body}' })
  @ValidateNested({ each: true })
  @Type(() => PassTextRowDto)
  textRows!: PassTextRowDto[];

  @ApiPropertyOptional({ type: PassBarcodeDto })
  @Optional()
  @IsObject({ message: 'barcode must be an object {type, value, alternateText}' })
  @ValidateNested()
  @Type(() => PassBarcodeDto)
  barcode?: PassBarcodeDto;

  @ApiProperty({ example: '#1a73e8', pattern: HEX_COLOR.source })
  @IsString({ message: 'backgroundColor must be text' })
  @Matches(HEX_COLOR, { message: 'backgroundColor must be a colour #rrggbb' })
  backgroundColor!: string;
}

export class PassParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'id must be a pass id (UUID)' })
  id!: string;
}

/** The multipart fields of POST /v1/passes/{id} besides the files "logo" and "hero". */
export class PassFormDto {
  @ApiProperty({ description: 'The pass fields as JSON (PassFieldsDto)' })
  @IsString({ message: 'pass must be the pass fields as JSON text' })
  @MaxLength(64 * 1024, { message: 'pass may have at most 65536 characters' })
  pass!: string;

  @ApiPropertyOptional({ description: 'Stored images to drop: logo, hero, or both (comma-separated, or the field repeated)' })
  @Optional()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.join(',') : value))
  @IsString({ message: 'remove must name images: logo, hero' })
  @Matches(/^\s*(logo|hero)\s*(,\s*(logo|hero)\s*)?$/, { message: 'remove must name images: logo, hero (comma-separated)' })
  remove?: string;
}

/** HTTP: GET /v1/passes/google (docs/api.md#wallet-passes: limit, offset, sort, dir). */
export class ListPassesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PASS_SORTS, default: 'created' })
  @Optional()
  @IsIn(PASS_SORTS, { message: `sort must be one of: ${PASS_SORTS.join(', ')}` })
  sort?: PassSort;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: 'DESC' })
  @Optional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(SORT_DIRECTIONS, { message: 'dir must be ASC or DESC' })
  dir?: SortDirection;
}

/** NATS: terminals.pass.{get,delete,google,apple} */
export class PassMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('all')
  passId!: string;
}

/** NATS: terminals.pass.list */
export class ListPassesMessage extends ListPassesQueryDto {
  @IsUUID('4')
  userId!: string;
}

/**
 * NATS: terminals.pass.save. `logo` and `hero`: an image stored first (terminals.pass.image-store) to
 * set, null to drop the stored one, left out to keep it.
 */
export class SavePassMessage extends PassFieldsDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('all')
  passId!: string;

  @Optional({ nullable: true })
  @Matches(PASS_IMAGE_ID)
  logo?: string | null;

  @Optional({ nullable: true })
  @Matches(PASS_IMAGE_ID)
  hero?: string | null;
}

/** NATS: terminals.pass.image-store — a PNG the gateway decoded, bounded and re-encoded, in base64. */
export class StorePassImageMessage {
  @IsUUID('4')
  userId!: string;

  @IsBase64()
  @MaxLength(Math.ceil(PASS_IMAGE_STORED_MAX_BYTES / 3) * 4)
  data!: string;
}

/** NATS: terminals.pass.image-get */
export class PassImageMessage {
  @Matches(PASS_IMAGE_ID)
  imageId!: string;
}
