import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { IdempotencyKeyField } from './idempotency.js';
import { Optional } from './input.js';
import {
  OAUTH_AUTH_METHODS,
  OAUTH_CLIENT_ID,
  OAUTH_RECORD_ID,
  OAUTH_SCOPE_NAMES,
  type OAuthAuthMethod,
  type OAuthScope,
} from './oauth-views.js';

/** The records oidc-provider keeps (its adapter's model names). */
export const OAUTH_MODELS = [
  'Session',
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'Interaction',
  'Grant',
  'ReplayDetection',
  'PushedAuthorizationRequest',
  'ClientCredentials',
] as const;
export type OAuthModel = (typeof OAUTH_MODELS)[number];

/** The ids oidc-provider makes (nanoid: URL-safe characters). */
const OAUTH_ID = /^[A-Za-z0-9_-]{8,128}$/;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where a registered app may receive codes: an absolute https URL, or http on this computer
 * (localhost, 127.0.0.1, [::1]: native apps and development), without a fragment or credentials.
 */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an absolute URL`;
  }
  if (url.hash || value.includes('#')) return `${value} must not have a fragment (#)`;
  if (url.username || url.password) return `${value} must not carry a user name or password`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `${value} must be https (or http on localhost, 127.0.0.1 or [::1])`;
}

/**
 * A list whose size is checked before any of its items (a body of 100,000 items is refused at once,
 * without validating each one), then its items in order, stopping at the first problem.
 */
function IsBoundedList(
  field: string,
  bounds: { min: number; max: number; noun: string },
  itemProblem: (item: unknown) => string | undefined,
  options?: ValidationOptions,
): PropertyDecorator {
  let problem: string | undefined;
  const check = (value: unknown): string | undefined => {
    if (!Array.isArray(value)) return `${field} must be a list`;
    if (value.length < bounds.min) return `${field} needs at least ${bounds.min} ${bounds.noun}`;
    if (value.length > bounds.max) return `${field} may have at most ${bounds.max} ${bounds.noun}s`;
    for (const item of value) {
      const wrong = itemProblem(item);
      if (wrong) return `${field}: ${wrong}`;
    }
    return undefined;
  };
  return ValidateBy(
    {
      name: 'isBoundedList',
      // The bound and its words, for the input pipe, which refuses a longer list before validation runs.
      constraints: [bounds.max, `${field} may have at most ${bounds.max} ${bounds.noun}s`],
      validator: {
        validate: (value: unknown) => (problem = check(value)) === undefined,
        defaultMessage: () => problem ?? `${field} is not valid`,
      },
    },
    options,
  );
}

const MAX_REDIRECT_URI = 2000;
const MAX_REDIRECT_URIS = 10;
/** Each scope once, with room for repeats (they are merged). */
const MAX_SCOPES = 20;

function redirectUriItemProblem(item: unknown): string | undefined {
  if (typeof item !== 'string') return 'each redirect URI must be text';
  if (item.length > MAX_REDIRECT_URI) return `each redirect URI may have at most ${MAX_REDIRECT_URI} characters`;
  return redirectUriProblem(item);
}

const scopeItemProblem = (item: unknown): string | undefined =>
  typeof item === 'string' && (OAUTH_SCOPE_NAMES as readonly string[]).includes(item)
    ? undefined
    : `each scope must be one of: ${OAUTH_SCOPE_NAMES.join(', ')}`;

const MAX_APP_LINK = 2000;

/** An app's public link (homepage, privacy policy, terms): an absolute http or https URL without credentials. */
export function appLinkProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} must be text`;
  if (value === '') return undefined;
  if (value.length > MAX_APP_LINK) return `${field} may have at most ${MAX_APP_LINK} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} must be an absolute http or https URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${field} must be an http or https URL`;
  if (url.username || url.password) return `${field} must not carry a user name or password`;
  return undefined;
}

function IsAppLink(field: string): PropertyDecorator {
  let problem: string | undefined;
  return ValidateBy({
    name: 'isAppLink',
    validator: {
      validate: (value: unknown) => (problem = appLinkProblem(field, value)) === undefined,
      defaultMessage: () => problem ?? `${field} is not valid`,
    },
  });
}

/**
 * Who made an app and its public links, shown on the consent page (given at registration, editable
 * later). An empty text clears a field.
 */
export class OAuthAppDetailsDto {
  @ApiPropertyOptional({ maxLength: 80, example: 'Shelf Tools Ltd', description: 'Who made the app (a person or a company)' })
  @Optional()
  @IsString({ message: 'developerName must be text' })
  @MaxLength(80, { message: 'developerName may have at most 80 characters' })
  developerName?: string;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'support@shelf.example.com',
    description: 'How users reach the developer (an email address or a URL)',
  })
  @Optional()
  @IsString({ message: 'developerContact must be text' })
  @MaxLength(200, { message: 'developerContact may have at most 200 characters' })
  developerContact?: string;

  @ApiPropertyOptional({ maxLength: MAX_APP_LINK, example: 'https://shelf.example.com', description: "The app's homepage (http or https)" })
  @Optional()
  @IsAppLink('homepageUrl')
  homepageUrl?: string;

  @ApiPropertyOptional({ maxLength: MAX_APP_LINK, description: "The app's privacy policy (http or https)" })
  @Optional()
  @IsAppLink('privacyUrl')
  privacyUrl?: string;

  @ApiPropertyOptional({ maxLength: MAX_APP_LINK, description: "The app's terms of service (http or https)" })
  @Optional()
  @IsAppLink('termsUrl')
  termsUrl?: string;
}

/** HTTP: POST /v1/oauth2/apps — register an app (its client_secret is shown once). */
export class CreateOAuthAppDto extends OAuthAppDetailsDto {
  @ApiProperty({ maxLength: 80, example: 'Shelf scanner', description: 'The name users see on the consent page' })
  @IsString({ message: 'name must be text' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(80, { message: 'name may have at most 80 characters' })
  @Matches(/\S/, { message: 'name must not be empty' })
  name!: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_REDIRECT_URIS,
    example: ['https://app.example.com/callback'],
    description: `Exact redirect URIs (1 to ${MAX_REDIRECT_URIS}, each up to ${MAX_REDIRECT_URI} characters)`,
  })
  @IsBoundedList('redirectUris', { min: 1, max: MAX_REDIRECT_URIS, noun: 'URI' }, redirectUriItemProblem)
  redirectUris!: string[];

  @ApiProperty({
    type: [String],
    enum: OAUTH_SCOPE_NAMES,
    minItems: 1,
    maxItems: MAX_SCOPES,
    description: 'The scopes the app may ask for',
  })
  @IsBoundedList('scopes', { min: 1, max: MAX_SCOPES, noun: 'scope' }, scopeItemProblem)
  scopes!: OAuthScope[];

  @ApiPropertyOptional({
    enum: OAUTH_AUTH_METHODS,
    default: 'client_secret_basic',
    description: "How the app authenticates at the token endpoint; 'none': a public app without a secret (PKCE only)",
  })
  @Optional()
  @IsIn(OAUTH_AUTH_METHODS, { message: `tokenEndpointAuthMethod must be one of: ${OAUTH_AUTH_METHODS.join(', ')}` })
  tokenEndpointAuthMethod?: OAuthAuthMethod;
}

export class CreateOAuthAppMessage extends CreateOAuthAppDto {
  @IsUUID('4')
  userId!: string;

  @IdempotencyKeyField()
  idempotencyKey?: string;
}

/** HTTP: PATCH /v1/oauth2/apps/{id} — change an app's name, redirect URIs, developer and links (owner only); what is left out stays. */
export class UpdateOAuthAppDto extends OAuthAppDetailsDto {
  @ApiPropertyOptional({ maxLength: 80, example: 'Shelf scanner', description: 'The name users see on the consent page' })
  @Optional()
  @IsString({ message: 'name must be text' })
  @MaxLength(80, { message: 'name may have at most 80 characters' })
  @Matches(/\S/, { message: 'name must not be empty' })
  name?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_REDIRECT_URIS,
    description: `Exact redirect URIs (1 to ${MAX_REDIRECT_URIS}), checked as at registration; they replace the old ones`,
  })
  @Optional()
  @IsBoundedList('redirectUris', { min: 1, max: MAX_REDIRECT_URIS, noun: 'URI' }, redirectUriItemProblem)
  redirectUris?: string[];
}

export class UpdateOAuthAppMessage extends UpdateOAuthAppDto {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  appId!: string;
}

/** HTTP: /v1/oauth2/apps/{id} */
export class OAuthAppParamsDto {
  @ApiProperty({ format: 'uuid', description: "The app's client_id" })
  @IsUUID('4', { message: 'id must be a UUID' })
  id!: string;
}

export class OAuthAppMessage {
  @IsUUID('4')
  userId!: string;

  @IsUUID('4')
  appId!: string;
}

/** HTTP: /v1/oauth2/consents/{id} */
export class OAuthConsentParamsDto {
  @ApiProperty({ description: "The consent's id" })
  @IsString()
  @Matches(OAUTH_ID, { message: 'id is not a consent id' })
  id!: string;
}

export class OAuthConsentMessage {
  @IsUUID('4')
  userId!: string;

  /** The consent's id (the app's id), or the id of one of its grants. */
  @IsString()
  @Matches(OAUTH_ID)
  consentId!: string;
}

/** HTTP: GET /v1/oauth2/setup, /v1/oauth2/reject and /v1/oauth2/interaction/{interaction} */
export class OAuthInteractionQueryDto {
  @ApiProperty({ description: 'The interaction the authorization request started (the consent page has it)' })
  @IsString({ message: 'interaction is required' })
  @Matches(OAUTH_ID, { message: 'interaction is not an interaction id' })
  interaction!: string;
}

/** NATS: identity.oauth.payload-* — one record of oidc-provider (the adapter asks for no id that cannot be one). */
export class OAuthPayloadMessage {
  @IsIn(OAUTH_MODELS)
  model!: OAuthModel;

  @IsString()
  @Matches(OAUTH_RECORD_ID)
  id!: string;
}

export class UpsertOAuthPayloadMessage extends OAuthPayloadMessage {
  @IsObject()
  payload!: Record<string, unknown>;

  /** Seconds it lives. */
  @IsInt()
  @Min(0)
  @Max(10 * 365 * 24 * 3600)
  expiresIn!: number;
}

export class OAuthUidMessage {
  @IsString()
  @Matches(OAUTH_RECORD_ID)
  uid!: string;
}

export class OAuthGrantMessage {
  @IsString()
  @Matches(OAUTH_RECORD_ID)
  grantId!: string;
}

export class OAuthClientMessage {
  @IsString()
  @Matches(OAUTH_CLIENT_ID)
  clientId!: string;
}

/** The grants that ended (their terminals go too). */
export interface OAuthGrantsEnded {
  grantIds: string[];
}

/** A registered app as oidc-provider's client metadata (client_secret is the SHA-256 of the secret). */
export interface OAuthClientMetadata {
  client_id: string;
  client_secret?: string;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: OAuthAuthMethod;
  /** Its OpenID Connect scopes (openid always; email when registered). */
  scope: string;
  /** Its /v1 scopes (extra client metadata: oidc-provider's `scope` holds only OpenID Connect ones). */
  api_scope: string;
  /** Who made it and how to reach them (extra client metadata, for the consent page). */
  developer_name?: string;
  developer_contact?: string;
  /** Its public links (OpenID Connect's client metadata names). */
  client_uri?: string;
  policy_uri?: string;
  tos_uri?: string;
}

/** One stored record of oidc-provider, or null when there is none (or it expired). */
export interface OAuthPayloadResult {
  payload: Record<string, unknown> | null;
}
