import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { IdempotencyKeyField } from './idempotency.js';
import { Optional } from './input.js';
import { CODE_KINDS, RETURN_TO_PATTERN, type CodeKind } from './identity-views.js';
import { canonicalTimeZone } from './time-zones.js';

/**
 * An optional path on this site to come back to (RETURN_TO_PATTERN: one leading "/", no backslash, no
 * white space; at most 500 characters), documented and checked alike wherever a route takes one.
 */
function ReturnTo(example: string, description: string): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ApiPropertyOptional({ example, maxLength: 500, description }),
    Optional(),
    IsString(),
    MaxLength(500, { message: 'returnTo must be at most 500 characters long' }),
    Matches(RETURN_TO_PATTERN, { message: 'returnTo must be a path on this site, starting with "/" (not "//")' }),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

const ORDER_PATH_EXAMPLE = '/orders/0b5c5c8e-9a4f-4d7e-8b1a-2f1f0f3c1a11';
const VERIFICATION_RETURN_TO =
  'Where the link of the verification email leads once it has verified the address: a path on this site (starts with "/", not "//"); /account when left out';

/**
 * An IANA time zone by its current or an old name (Europe/Kyiv or Europe/Kiev, any letter case); the
 * service stores the current name (canonicalTimeZone).
 */
export function IsKnownTimeZone(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isKnownTimeZone',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.length <= 64 && canonicalTimeZone(value) !== undefined,
        defaultMessage: () => 'tz must be an IANA time zone such as Europe/Paris',
      },
    },
    options,
  );
}

/** HTTP: POST /v1/users */
export class CreateUserDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ minLength: 8, maxLength: 1024 })
  @IsString()
  @MinLength(8, { message: 'password must be at least 8 characters long' })
  @MaxLength(1024)
  password!: string;

  @ApiPropertyOptional({
    example: 'Europe/Berlin',
    maxLength: 64,
    description:
      "The browser's time zone, to start the account on (IANA, current or old name; stored by its current name). A name that is not a known zone is ignored: the account starts on UTC.",
  })
  @Optional()
  @IsString()
  @MaxLength(64)
  tz?: string;

  @ReturnTo(ORDER_PATH_EXAMPLE, VERIFICATION_RETURN_TO)
  returnTo?: string;
}

/** NATS: identity.user.create — a sign-up, with its request's Idempotency-Key (a retry answers the same account). */
export class CreateUserMessage extends CreateUserDto {
  @IdempotencyKeyField()
  idempotencyKey?: string;

  /** The client's address as the gateway determined it: a keyed retry checks the password as a sign-in does, counted there. */
  @Optional()
  @IsString()
  @MaxLength(64)
  clientAddress?: string;
}

/** HTTP: POST /v1/users/{guid}/requestverification (the body is optional) */
export class RequestVerificationDto {
  @ReturnTo(ORDER_PATH_EXAMPLE, VERIFICATION_RETURN_TO)
  returnTo?: string;
}

/** NATS: identity.verification.request */
export class RequestVerificationMessage extends RequestVerificationDto {
  @IsUUID('4')
  userId!: string;
}

/** HTTP: POST /v1/users/{guid}/signin (the path takes the guid or the email) */
export class SignInDto {
  @ApiProperty()
  @IsString()
  @MinLength(1, { message: 'password is required' })
  @MaxLength(1024)
  password!: string;
}

/** HTTP: POST /v1/users/me */
export class UpdateProfileDto {
  @ApiPropertyOptional({
    example: 'Europe/Paris',
    description: 'IANA time zone, by its current or an old name (Europe/Kiev is kept as Europe/Kyiv)',
  })
  @Optional()
  @IsKnownTimeZone()
  tz?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

/** HTTP: POST /v1/contact */
export class ContactDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1, { message: 'name is required' })
  @MaxLength(200)
  name!: string;

  @ApiProperty({ maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ maxLength: 5000 })
  @IsString()
  @MinLength(1, { message: 'question is required' })
  @MaxLength(5000)
  question!: string;
}

/** NATS: identity.contact.create — a question, with its request's Idempotency-Key (a retry sends it once). */
export class ContactMessage extends ContactDto {
  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** NATS: identity.user.signin */
export class SignInMessage extends SignInDto {
  @IsString()
  @MaxLength(254)
  identifier!: string;

  /** The client's address as the gateway determined it (TRUST_PROXY): sign-in failures are counted per account and address. */
  @Optional()
  @IsString()
  @MaxLength(64)
  clientAddress?: string;

  /** The device cookies the browser sent (tokens of accounts it signed in to before), at most 10. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  deviceTokens?: string[];
}

/** NATS: identity.session.verify and identity.session.end */
export class TokenMessage {
  @IsString()
  @MaxLength(200)
  token!: string;
}

/** NATS: identity.user.me */
export class UserIdMessage {
  @IsUUID('4')
  userId!: string;
}

/** NATS: identity.user.update */
export class UpdateProfileMessage extends UpdateProfileDto {
  @IsUUID('4')
  userId!: string;
}

/** NATS: identity.user.public */
export class PublicProfileMessage {
  @ApiProperty({ format: 'uuid', description: "The account's guid" })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

/** HTTP: POST /v1/account/resetpassword/setup */
export class ResetSetupDto {
  @ApiProperty({ maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;
}

/** HTTP: POST /v1/account/resetpassword (the token comes from the emailed link) */
export class ResetPasswordDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;

  @ApiProperty({ minLength: 8, maxLength: 1024 })
  @IsString()
  @MinLength(8, { message: 'password must be at least 8 characters long' })
  @MaxLength(1024)
  password!: string;
}

/** HTTP: POST /v1/account/verify */
/** HTTP: POST /v1/account/resetpassword/check (and NATS identity.reset.check) */
export class ResetCheckDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;
}

export class VerifyEmailDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token!: string;
}

/** HTTP: POST /v1/users/me/codes */
export class CreateCodeDto {
  @ApiProperty({
    enum: CODE_KINDS,
    description: 'tokenswap: a code for your own account; impersonate (administrators): a code for another account',
  })
  @IsIn(CODE_KINDS, { message: `kind must be one of ${CODE_KINDS.join(', ')}` })
  kind!: CodeKind;

  @ApiPropertyOptional({ description: 'impersonate only: the guid or email of the account' })
  @Optional()
  @IsString()
  @MaxLength(254)
  user?: string;
}

/** NATS: identity.code.create */
export class CreateCodeMessage extends CreateCodeDto {
  @IsUUID('4')
  userId!: string;
}

/** NATS: identity.code.exchange */
export class ExchangeCodeMessage {
  @IsString()
  @MaxLength(200)
  code!: string;
}

/** HTTP: POST /v1/auth/{provider}/authorize (the body is optional) */
export class OidcAuthorizeDto {
  @ReturnTo('/account', 'Where the web app goes after signing in: a path on this site (starts with "/", not "//")')
  returnTo?: string;
}

/** NATS: identity.oidc.authorize */
export class OidcAuthorizeMessage extends OidcAuthorizeDto {
  @IsString()
  @MaxLength(40)
  provider!: string;
}

/** NATS: identity.oidc.exchange (HTTP: POST /v1/{provider}/credentials/exchange/{code}?state=...&iss=...) */
export class OidcExchangeMessage {
  @IsString()
  @MaxLength(40)
  provider!: string;

  @IsString()
  @MinLength(1, { message: 'code is required' })
  @MaxLength(2048, { message: 'code is too long' })
  code!: string;

  @IsString({ message: 'state is required: pass the state query parameter the provider sent back' })
  @MinLength(1, { message: 'state is required: pass the state query parameter the provider sent back' })
  @MaxLength(512, { message: 'state is too long' })
  state!: string;

  /** The iss parameter of the provider's redirect (RFC 9207), when it sent one. */
  @Optional()
  @IsString()
  @MaxLength(500, { message: 'iss is too long' })
  iss?: string;
}

/**
 * NATS: identity.mail.send — a message for identity's mail queue (retried with backoff), to an account
 * (by id: identity knows its address) or to an address. Exactly one of `toUserId` and `to`.
 */
export class SendMailMessage {
  @Optional()
  @IsUUID('4')
  toUserId?: string;

  @Optional()
  @IsEmail()
  @MaxLength(254)
  to?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  subject!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(20_000)
  text!: string;

  /** Replies go to this account's address (a seller or buyer who agreed to share it). */
  @Optional()
  @IsUUID('4')
  replyToUserId?: string;

  @Optional()
  @IsEmail()
  @MaxLength(254)
  replyTo?: string;

  /**
   * Idempotency key: a message sent again with the same key within MAIL_KEY_RETENTION_DAYS (7 days)
   * is accepted but sent once, also when both arrive at once (commerce's mail listener passes
   * `<event id>:<recipient>`, so an event handled again after a crash mails once). None: every
   * request is a mail of its own.
   */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  key?: string;
}

/** NATS: identity.user.find-by-email */
export class FindByEmailMessage {
  @IsEmail()
  @MaxLength(254)
  email!: string;
}
