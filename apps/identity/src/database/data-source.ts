import { outboxEntities, type ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { ActionTokenEntity } from '../accounts/action-token.entity.js';
import { ExchangeCodeEntity } from '../accounts/exchange-code.entity.js';
import { KnownDeviceEntity } from '../accounts/known-device.entity.js';
import { SessionEntity } from '../accounts/session.entity.js';
import { UserEntity } from '../accounts/user.entity.js';
import { ContactMessageEntity } from '../contact/contact-message.entity.js';
import { MailKeyEntity } from '../mail/mail-key.entity.js';
import { OAuthAppEntity } from '../oauth/oauth-app.entity.js';
import { OAuthRecordEntity } from '../oauth/oauth-record.entity.js';
import { OidcLoginEntity } from '../social/oidc-login.entity.js';
import { Initial1763856000000 } from './migrations/1763856000000-initial.js';
import { Accounts1763900000000 } from './migrations/1763900000000-accounts.js';
import { ActionTokens1763950000000 } from './migrations/1763950000000-action-tokens.js';
import { Codes1764000000000 } from './migrations/1764000000000-codes.js';
import { SocialSignIn1764100000000 } from './migrations/1764100000000-social-sign-in.js';
import { OAuth1764900000000 } from './migrations/1764900000000-oauth.js';
import { KnownDevices1765100000000 } from './migrations/1765100000000-known-devices.js';
import { MailKeys1765200000000 } from './migrations/1765200000000-mail-keys.js';
import { Outbox1766200000000 } from './migrations/1766200000000-outbox.js';
import { OAuthAppDetails1766500000000 } from './migrations/1766500000000-oauth-app-details.js';
import { IdempotencyKeys1797400000000 } from './migrations/1797400000000-idempotency-keys.js';

/** The schema the identity service owns; no other service reads it. */
export const SCHEMA = 'identity';

export function dataSourceOptions(url: string): ServiceDataSourceOptions {
  return {
    url,
    schema: SCHEMA,
    entities: [
      UserEntity,
      SessionEntity,
      ActionTokenEntity,
      ExchangeCodeEntity,
      KnownDeviceEntity,
      ContactMessageEntity,
      MailKeyEntity,
      OidcLoginEntity,
      OAuthAppEntity,
      OAuthRecordEntity,
      ...outboxEntities(SCHEMA),
    ],
    migrations: [
      Initial1763856000000,
      Accounts1763900000000,
      ActionTokens1763950000000,
      Codes1764000000000,
      SocialSignIn1764100000000,
      OAuth1764900000000,
      KnownDevices1765100000000,
      MailKeys1765200000000,
      Outbox1766200000000,
      OAuthAppDetails1766500000000,
      IdempotencyKeys1797400000000,
    ],
  };
}
