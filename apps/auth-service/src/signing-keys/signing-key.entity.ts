import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type SigningKeyStatus = 'active' | 'retired' | 'revoked';

@Entity({ name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'varchar', length: 16 })
  algorithm: 'RS256';

  @Column({ name: 'public_key_pem', type: 'text' })
  publicKeyPem: string;

  /** AES-256-GCM ciphertext of the PKCS#8 PEM, base64 `iv.tag.data`. */
  @Column({ name: 'private_key_ciphertext', type: 'text' })
  privateKeyCiphertext: string;

  @Column({ type: 'varchar', length: 16 })
  status: SigningKeyStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
