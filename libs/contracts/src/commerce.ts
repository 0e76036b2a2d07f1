import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, Matches } from 'class-validator';
import { Optional } from './input.js';

/** What GET /v1/users/me may include besides the profile (comma separated). */
export const PROFILE_INCLUDES = ['services'] as const;

/** HTTP: GET /v1/users/me?include=services */
export class ProfileQueryDto {
  @ApiPropertyOptional({ description: `Comma-separated extras: ${PROFILE_INCLUDES.join(', ')}`, example: 'services' })
  @Optional()
  @Matches(new RegExp(`^(${PROFILE_INCLUDES.join('|')})(,(${PROFILE_INCLUDES.join('|')}))*$`), {
    message: `include must be a comma-separated list of: ${PROFILE_INCLUDES.join(', ')}`,
  })
  include?: string;
}

/** NATS: commerce.service.list */
export class UserServicesMessage {
  @IsUUID('4')
  userId!: string;
}

/** A provider service (spec section 3): name, provider, vendor, account, plus provider-specific extras. */
export interface ServiceView {
  id: string;
  name: string;
  provider: string;
  vendor: string;
  account: string;
  created: string;
  modified: string;
  [extra: string]: unknown;
}
