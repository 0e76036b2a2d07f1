import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A browser that signed in to the account before (a device cookie); only the SHA-256 of its token is kept. */
@Entity({ name: 'known_device' })
export class KnownDeviceEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'last_used', type: 'timestamptz', default: () => 'now()' })
  lastUsed!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
