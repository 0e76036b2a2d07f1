import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import {
  OidcAuthorizeMessage,
  OidcExchangeMessage,
  SUBJECTS,
  type OidcAuthorizeResult,
  type OidcExchangeResult,
  type OidcProvidersResult,
} from '@tinkerdesk/contracts';
import { SocialService } from './social.service.js';

/** NATS handlers of social sign-in: translate only, the rules are in the service. */
@Controller()
export class SocialController {
  constructor(private readonly social: SocialService) {}

  @Handles(SUBJECTS.identity.oidcList)
  list(): OidcProvidersResult {
    return this.social.list();
  }

  @Handles(SUBJECTS.identity.oidcAuthorize)
  authorize(@Payload() input: OidcAuthorizeMessage): Promise<OidcAuthorizeResult> {
    return this.social.authorize(input.provider, input.returnTo);
  }

  @Handles(SUBJECTS.identity.oidcExchange)
  exchange(@Payload() input: OidcExchangeMessage): Promise<OidcExchangeResult> {
    return this.social.exchange(input.provider, input.code, input.state, input.iss);
  }
}
