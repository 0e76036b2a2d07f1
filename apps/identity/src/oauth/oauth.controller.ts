import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateOAuthAppMessage,
  OAuthAppMessage,
  OAuthClientMessage,
  OAuthConsentMessage,
  OAuthGrantMessage,
  OAuthPayloadMessage,
  OAuthUidMessage,
  SUBJECTS,
  UpdateOAuthAppMessage,
  UpsertOAuthPayloadMessage,
  UserIdMessage,
  type Done,
  type OAuthAppCreated,
  type OAuthAppUpdated,
  type OAuthAppList,
  type OAuthClientMetadata,
  type OAuthConsentList,
  type OAuthGrantsEnded,
  type OAuthPayloadResult,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { OAuthRepository } from './oauth.repository.js';
import { OAuthService } from './oauth.service.js';

const done: Done = { success: true };

/**
 * NATS handlers of OAuth: the storage of oidc-provider (which runs in the gateway: its adapter calls
 * these), the apps users register and the consents they gave. Translate only.
 */
@Controller()
export class OAuthController {
  constructor(
    @Inject(OAuthRepository) private readonly records: OAuthRepository,
    @Inject(OAuthService) private readonly oauth: OAuthService,
  ) {}

  @Handles(SUBJECTS.identity.oauthPayloadUpsert)
  async upsert(@Payload() input: UpsertOAuthPayloadMessage): Promise<Done> {
    await this.records.upsert(input.model, input.id, input.payload, input.expiresIn);
    return done;
  }

  @Handles(SUBJECTS.identity.oauthPayloadFind)
  async find(@Payload() input: OAuthPayloadMessage): Promise<OAuthPayloadResult> {
    return { payload: await this.records.find(input.model, input.id) };
  }

  @Handles(SUBJECTS.identity.oauthPayloadFindByUid)
  async findByUid(@Payload() input: OAuthUidMessage): Promise<OAuthPayloadResult> {
    return { payload: await this.records.findSessionByUid(input.uid) };
  }

  @Handles(SUBJECTS.identity.oauthPayloadConsume)
  async consume(@Payload() input: OAuthPayloadMessage): Promise<Done> {
    await this.records.consume(input.model, input.id);
    return done;
  }

  @Handles(SUBJECTS.identity.oauthPayloadDestroy)
  async destroy(@Payload() input: OAuthPayloadMessage): Promise<Done> {
    await this.records.destroy(input.model, input.id);
    return done;
  }

  @Handles(SUBJECTS.identity.oauthGrantRevoke)
  async revoke(@Payload() input: OAuthGrantMessage): Promise<Done> {
    await this.records.revokeGrant(input.grantId);
    return done;
  }

  @Handles(SUBJECTS.identity.oauthClientGet)
  async client(@Payload() input: OAuthClientMessage): Promise<{ client: OAuthClientMetadata | null }> {
    return { client: await this.oauth.client(input.clientId) };
  }

  @Handles(SUBJECTS.identity.oauthAppCreate)
  createApp(@Payload() input: CreateOAuthAppMessage): Promise<OAuthAppCreated> {
    return this.oauth.createApp(input);
  }

  @Handles(SUBJECTS.identity.oauthAppList)
  listApps(@Payload() input: UserIdMessage): Promise<OAuthAppList> {
    return this.oauth.listApps(input.userId);
  }

  @Handles(SUBJECTS.identity.oauthAppDelete)
  deleteApp(@Payload() input: OAuthAppMessage): Promise<OAuthGrantsEnded> {
    return this.oauth.deleteApp(input.userId, input.appId);
  }

  @Handles(SUBJECTS.identity.oauthAppUpdate)
  updateApp(@Payload() input: UpdateOAuthAppMessage): Promise<OAuthAppUpdated> {
    return this.oauth.updateApp(input);
  }

  @Handles(SUBJECTS.identity.oauthAppSecret)
  replaceSecret(@Payload() input: OAuthAppMessage): Promise<OAuthAppCreated> {
    return this.oauth.replaceSecret(input.userId, input.appId);
  }

  @Handles(SUBJECTS.identity.oauthConsentList)
  consents(@Payload() input: UserIdMessage): Promise<OAuthConsentList> {
    return this.oauth.consents(input.userId);
  }

  @Handles(SUBJECTS.identity.oauthConsentWithdraw)
  withdraw(@Payload() input: OAuthConsentMessage): Promise<OAuthGrantsEnded> {
    return this.oauth.withdraw(input.userId, input.consentId);
  }
}
