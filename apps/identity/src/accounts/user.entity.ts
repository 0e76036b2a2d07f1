import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'user' })
export class UserEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  /** 'internal' (email and password) or the social sign-in provider that created the account. */
  @Column({ type: 'text', default: 'internal' })
  provider!: string;

  /** The provider's subject (the ID token's sub) of a social account; unique per provider. */
  @Column({ name: 'provider_subject', type: 'text', nullable: true })
  providerSubject!: string | null;

  @Column({ type: 'text', default: '' })
  name!: string;

  @Column({ type: 'text', default: 'UTC' })
  tz!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'boolean', default: false })
  verified!: boolean;

  @Column({ type: 'text', default: 'user' })
  role!: 'user' | 'admin';

  @Column({ type: 'jsonb', default: {} })
  context!: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
