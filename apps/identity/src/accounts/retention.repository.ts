import type { RetentionRule } from '@tinkerdesk/persistence';

/** How long identity keeps the records of accounts that are over (SESSION_RETENTION_DAYS, ACTION_TOKEN_RETENTION_DAYS). */
export interface AccountsRetention {
  sessionDays: number;
  actionTokenDays: number;
}

/**
 * The rows of accounts that no request reads any more, for the retention sweep of identity's
 * outbox (libs/persistence retention.ts): sessions ended or expired, known devices past their
 * expiry (a sign-in from that browser is a new device again), emailed links used or expired.
 */
export function accountsRetentionRules(r: AccountsRetention): RetentionRule[] {
  return [
    {
      name: 'identity.session',
      table: `"identity"."session"`,
      condition: (cutoff) => `("ended_at" < ${cutoff} OR "expires_at" < ${cutoff})`,
      keepDays: r.sessionDays,
    },
    { name: 'identity.known_device', table: `"identity"."known_device"`, condition: (cutoff) => `"expires_at" < ${cutoff}`, keepDays: 0 },
    {
      name: 'identity.action_token',
      table: `"identity"."action_token"`,
      condition: (cutoff) => `("used_at" < ${cutoff} OR "expires_at" < ${cutoff})`,
      keepDays: r.actionTokenDays,
    },
  ];
}
