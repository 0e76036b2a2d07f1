import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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
import { Optional } from './input.js';
import { OAUTH_AUTH_METHODS, OAUTH_SCOPE_NAMES, type OAuthAuthMethod, type OAuthScope } from './oauth-views.js';

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

function IsRedirectUri(options?: ValidationOptions): PropertyDecorator {
  let problem: string | undefined;
  return ValidateBy(
    {
      name: 'isRedirectUri',
      validator: {
        validate: (value: unknown) => {
          problem = typeof value === 'string' ? redirectUriProblem(value) : 'each redirect URI must be text';
          return problem === undefined;
        },
        defaultMessage: () => `redirectUris: ${problem ?? 'not a valid redirect URI'}`,
      },
    },
    options,
  );
}

/** HTTP: POST /v1/oauth2/apps — register an app (its client_secret is shown once). */
export class CreateOAuthAppDto {
  @ApiProperty({ maxLength: 80, example: 'Shelf scanner', description: 'The name users see on the consent page' })
  @IsString({ message: 'name must be text' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(80, { message: 'name may have at most 80 characters' })
  @Matches(/\S/, { message: 'name must not be empty' })
  name!: string;

  @ApiProperty({ type: [String], example: ['https://app.example.com/callback'], description: 'Exact redirect URIs (1 to 10)' })
  @IsArray({ message: 'redirectUris must be a list' })
  @ArrayMinSize(1, { message: 'redirectUris needs at least one URI' })
  @ArrayMaxSize(10, { message: 'redirectUris may have at most 10 URIs' })
  @MaxLength(2000, { each: true, message: 'each redirect URI may have at most 2000 characters' })
  @IsRedirectUri({ each: true })
  redirectUris!: string[];

  @ApiProperty({ type: [String], enum: OAUTH_SCOPE_NAMES, description: 'The scopes the app may ask for' })
  @IsArray({ message: 'scopes must be a list' })
  @ArrayMinSize(1, { message: 'scopes needs at least one scope' })
  @IsIn(OAUTH_SCOPE_NAMES, { each: true, message: `each scope must be one of: ${OAUTH_SCOPE_NAMES.join(', ')}` })
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

  @IsString()
  @Matches(OAUTH_ID)
  grantId!: string;
}

/** HTTP: GET /v1/oauth2/setup, /v1/oauth2/reject and /v1/oauth2/interaction/{interaction} */
export class OAuthInteractionQueryDto {
  @ApiProperty({ description: 'The interaction the authorization request started (the consent page has it)' })
  @IsString({ message: 'interaction is required' })
  @Matches(OAUTH_ID, { message: 'interaction is not an interaction id' })
  interaction!: string;
}

/** NATS: identity.oauth.payload-* — one record of oidc-provider. */
export class OAuthPayloadMessage {
  @IsIn(OAUTH_MODELS)
  model!: OAuthModel;

  @IsString()
  @MaxLength(200)
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
  @MaxLength(200)
  uid!: string;
}

export class OAuthGrantMessage {
  @IsString()
  @MaxLength(200)
  grantId!: string;
}

export class OAuthClientMessage {
  @IsString()
  @MaxLength(200)
  clientId!: string;
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
}

/** One stored record of oidc-provider, or null when there is none (or it expired). */
export interface OAuthPayloadResult {
  payload: Record<string, unknown> | null;
}
