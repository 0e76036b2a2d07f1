import type { OAuthAuthMethod, OAuthScope } from '@tinkerdesk/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An app a user registered for OAuth (an oidc-provider client); only the SHA-256 of its secret is kept. */
@Entity({ name: 'oauth_app' })
export class OAuthAppEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'redirect_uris', type: 'text', array: true })
  redirectUris!: string[];

  @Column({ type: 'text', array: true })
  scopes!: OAuthScope[];

  @Column({ name: 'auth_method', type: 'text' })
  authMethod!: OAuthAuthMethod;

  @Column({ name: 'secret_hash', type: 'text', nullable: true })
  secretHash!: string | null;

  /** Who made the app and how to reach them, and its public links: shown on the consent page (null: not given). */
  @Column({ name: 'developer_name', type: 'text', nullable: true })
  developerName!: string | null;

  @Column({ name: 'developer_contact', type: 'text', nullable: true })
  developerContact!: string | null;

  @Column({ name: 'homepage_url', type: 'text', nullable: true })
  homepageUrl!: string | null;

  @Column({ name: 'privacy_url', type: 'text', nullable: true })
  privacyUrl!: string | null;

  @Column({ name: 'terms_url', type: 'text', nullable: true })
  termsUrl!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
