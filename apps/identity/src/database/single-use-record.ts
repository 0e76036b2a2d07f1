import { Column, CreateDateColumn } from 'typeorm';

/** The columns every single-use, expiring record shares (emailed tokens, pending social sign-ins). */
export abstract class SingleUseRecord {
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
