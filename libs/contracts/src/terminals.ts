import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { ListQueryDto } from './conversion.js';
import { OAUTH_RECORD_ID } from './oauth-views.js';
import { IdempotencyKeyField } from './idempotency.js';
import { Optional } from './input.js';
import {
  SHARE_CONTENT_MAX,
  SHARE_CONTENT_TYPES,
  SHARE_DESCRIPTION_MAX,
  TERMINAL_PLATFORMS,
  type ShareContentType,
  type TerminalPlatform,
} from './terminals-views.js';

/** A terminal token: tt_ and 43 base64url characters (32 random bytes). */
export const TERMINAL_TOKEN = /^tt_[A-Za-z0-9_-]{43}$/;

/** An object of at most 20 string values (keys up to 40 characters, values up to 200). */
function IsStringMap(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringMap',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.entries(value).length <= 20 &&
          Object.entries(value).every(([k, v]) => k.length >= 1 && k.length <= 40 && typeof v === 'string' && v.length <= 200),
        defaultMessage: () => 'details must be an object of at most 20 text values (keys up to 40 characters, values up to 200)',
      },
    },
    options,
  );
}

/** HTTP: POST /v1/terminals — register this browser (docs/api.md#terminals-and-web-push). */
export class RegisterTerminalDto {
  @ApiProperty({ maxLength: 80, example: 'Kitchen tablet' })
  @IsString({ message: 'label must be text' })
  @MinLength(1, { message: 'label must not be empty' })
  @MaxLength(80, { message: 'label may have at most 80 characters' })
  @Matches(/\S/, { message: 'label must not be empty' })
  label!: string;

  @ApiProperty({ description: 'It may send shares' })
  @IsBoolean({ message: 'send must be true or false' })
  send!: boolean;

  @ApiProperty({ description: 'It receives shares (its inbox and push)' })
  @IsBoolean({ message: 'receive must be true or false' })
  receive!: boolean;

  @ApiProperty({ description: 'An inactive terminal neither sends nor receives' })
  @IsBoolean({ message: 'active must be true or false' })
  active!: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Free details (browser, OS …): text values',
    example: { browser: 'Chrome 142' },
  })
  @Optional()
  @IsStringMap()
  details?: Record<string, string>;

  @ApiProperty({ enum: TERMINAL_PLATFORMS })
  @IsIn(TERMINAL_PLATFORMS, { message: `platform must be one of: ${TERMINAL_PLATFORMS.join(', ')}` })
  platform!: TerminalPlatform;

  @ApiProperty({ type: [String], example: ['push', 'share-target'], description: 'What the browser can do (at most 20 names)' })
  @IsArray({ message: 'capabilities must be a list' })
  @ArrayMaxSize(20, { message: 'capabilities may have at most 20 names' })
  @IsString({ each: true, message: 'capabilities must be names' })
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, { each: true, message: 'each capability is a short lower-case name (a-z, 0-9, -)' })
  capabilities!: string[];

  @ApiProperty({ description: 'Registered from another device on behalf of this one' })
  @IsBoolean({ message: 'remote must be true or false' })
  remote!: boolean;
}

/** The app whose access token registered a terminal: the terminal belongs to that grant and ends with it. */
export class TerminalAppMessage {
  @IsString()
  @Matches(OAUTH_RECORD_ID)
  grantId!: string;

  @IsUUID('4')
  appId!: string;

  @IsString()
  @MaxLength(80)
  appName!: string;
}

export class RegisterTerminalMessage extends RegisterTerminalDto {
  @IsUUID('4')
  userId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;

  /** Set when an app's access token (scope terminals) registers it; absent for the user's own session. */
  @Optional()
  @ValidateNested()
  @Type(() => TerminalAppMessage)
  app?: TerminalAppMessage;
}

/** NATS: terminals.grant.ended — OAuth grants that ended (withdrawn, app deleted, refresh token reused): their terminals go. */
export class GrantsEndedMessage {
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(OAUTH_RECORD_ID, { each: true })
  grantIds!: string[];
}

/** HTTP: POST /v1/terminals/{id} — rename, switch send/receive/active, choose where its shares go. */
export class UpdateTerminalDto {
  @ApiPropertyOptional({ maxLength: 80 })
  @Optional()
  @IsString({ message: 'label must be text' })
  @MinLength(1, { message: 'label must not be empty' })
  @MaxLength(80, { message: 'label may have at most 80 characters' })
  @Matches(/\S/, { message: 'label must not be empty' })
  label?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean({ message: 'send must be true or false' })
  send?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean({ message: 'receive must be true or false' })
  receive?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: "Where this terminal's own shares (the share sheet) go: another of your terminals, or null for its own inbox",
  })
  @Optional({ nullable: true })
  @IsUUID('4', { message: 'destination must be a terminal id (UUID) or null' })
  destination?: string | null;
}

export class UpdateTerminalMessage extends UpdateTerminalDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  terminalId!: string;
}

export class TerminalParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'id must be a terminal id (UUID)' })
  id!: string;
}

export class TerminalIdParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'terminalId must be a terminal id (UUID)' })
  terminalId!: string;
}

export class ShareParamsDto extends TerminalParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('4', { message: 'shareId must be a share id (UUID)' })
  shareId!: string;
}

/** NATS: terminals.terminal.{get,remove}, terminals.subscription.remove */
export class TerminalMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  terminalId!: string;

  /** The terminal whose token made the call (it may act on itself only), when not the user's. */
  @Optional()
  @IsUUID('4')
  callerTerminalId?: string;
}

/** NATS: terminals.token.verify */
export class TerminalTokenMessage {
  @Matches(TERMINAL_TOKEN)
  token!: string;
}

export class PushKeysDto {
  @ApiProperty({ description: "The browser's P-256 public key, base64url" })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{80,100}={0,2}$/, { message: 'keys.p256dh must be a P-256 public key (base64url)' })
  p256dh!: string;

  @ApiProperty({ description: 'The 16-byte authentication secret, base64url' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{20,24}={0,2}$/, { message: 'keys.auth must be a 16-byte secret (base64url)' })
  auth!: string;
}

/** HTTP: POST /v1/terminals/{id}/subscription — the terminal's Web Push subscription (PushSubscription.toJSON()). */
export class PushSubscriptionDto {
  @ApiProperty({ description: "The push service's endpoint (https)" })
  @IsString()
  @MaxLength(2000)
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false }, { message: 'endpoint must be an https URL' })
  endpoint!: string;

  @ApiPropertyOptional({ type: 'number', nullable: true, description: 'When the push service ends it (epoch milliseconds)' })
  @Optional({ nullable: true })
  @IsInt()
  expirationTime?: number | null;

  @ApiProperty({ type: PushKeysDto })
  @IsObject({ message: 'keys must be an object {p256dh, auth}' })
  @ValidateNested()
  @Type(() => PushKeysDto)
  keys!: PushKeysDto;
}

/** NATS: terminals.subscription.save */
export class SaveSubscriptionMessage extends PushSubscriptionDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  terminalId!: string;

  /** The terminal whose token made the call (it may only subscribe itself), when not the user's. */
  @Optional()
  @IsUUID('4')
  callerTerminalId?: string;
}

/** HTTP: POST /v1/terminals/{terminalId}/share — the share payload. */
export class ShareDto {
  @ApiProperty({ enum: SHARE_CONTENT_TYPES, example: 'text/x-uri' })
  @IsIn(SHARE_CONTENT_TYPES, { message: `contentType must be one of: ${SHARE_CONTENT_TYPES.join(', ')}` })
  contentType!: ShareContentType;

  @ApiProperty({ minLength: 1, maxLength: SHARE_CONTENT_MAX, example: 'https://example.com/article' })
  @IsString({ message: 'content must be text' })
  @Matches(/\S/, { message: 'content must not be empty: share a link or some text' })
  @MaxLength(SHARE_CONTENT_MAX, { message: `content may have at most ${SHARE_CONTENT_MAX} characters` })
  content!: string;

  @ApiPropertyOptional({ maxLength: SHARE_DESCRIPTION_MAX })
  @Optional()
  @IsString({ message: 'description must be text' })
  @MaxLength(SHARE_DESCRIPTION_MAX, { message: `description may have at most ${SHARE_DESCRIPTION_MAX} characters` })
  description?: string;
}

/** NATS: terminals.share.send */
export class SendShareMessage extends ShareDto {
  @IsUUID('4')
  userId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;

  /** The target in the URL. */
  @IsUUID('4')
  terminalId!: string;

  /** The terminal whose token made the call, when not the user's. */
  @Optional()
  @IsUUID('4')
  fromTerminalId?: string;
}

/** NATS: terminals.share.list */
export class ListSharesMessage extends ListQueryDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  terminalId!: string;

  @Optional()
  @IsUUID('4')
  callerTerminalId?: string;
}

/** NATS: terminals.share.remove */
export class ShareMessage extends TerminalMessage {
  @IsUUID('4')
  shareId!: string;
}
