import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  uuid: string;

  @Column({ name: 'tenant_uuid', type: 'uuid' })
  tenantUuid: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** The `username` of a token request. */
  @Column({ name: 'public_key', type: 'varchar', length: 64 })
  publicKey: string;

  /** Hash of the private key (the `password`); the key itself is shown once, at creation. */
  @Column({ name: 'secret_hash', type: 'text' })
  secretHash: string;

  @Column({ name: 'role_uuid', type: 'uuid' })
  roleUuid: string;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
