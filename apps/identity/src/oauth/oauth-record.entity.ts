import type { OAuthModel } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One of oidc-provider's records (session, interaction, grant, code, token), with the columns it is looked up by. */
@Entity({ name: 'oauth_record' })
export class OAuthRecordEntity {
  @PrimaryColumn({ type: 'text' })
  model!: OAuthModel;

  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'grant_id', type: 'text', nullable: true })
  grantId!: string | null;

  @Column({ type: 'text', nullable: true })
  uid!: string | null;

  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;

  @Column({ name: 'client_id', type: 'text', nullable: true })
  clientId!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;
}
