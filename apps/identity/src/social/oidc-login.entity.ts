import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SingleUseRecord } from '../database/single-use-record.js';

/** A social sign-in that was started and not finished yet (single use, ten minutes). */
@Entity({ name: 'oidc_login' })
export class OidcLoginEntity extends SingleUseRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  provider!: string;

  /** SHA-256 of the state sent to the provider. */
  @Column({ name: 'state_hash', type: 'text' })
  stateHash!: string;

  /** The PKCE code_verifier (its S256 challenge went to the provider). */
  @Column({ name: 'code_verifier', type: 'text' })
  codeVerifier!: string;

  @Column({ type: 'text' })
  nonce!: string;

  @Column({ name: 'return_to', type: 'text', nullable: true })
  returnTo!: string | null;
}
