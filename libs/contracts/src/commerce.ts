import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, Matches } from 'class-validator';
import { PROFILE_INCLUDES } from './commerce-views.js';
import { Optional } from './input.js';

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
