import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { EntityType } from '@cpc/contracts';

export type AccountKind = 'user' | 'apikey';

/**
 * Refresh tokens are opaque and single use. Each carries its family (the chain started by one password grant): when a
 * used token is presented again, the whole family is revoked, since one of the two holders is not the client.
 */
@Entity({ name: 'refresh_tokens' })
export class RefreshTokenEntity {
  @PrimaryColumn('uuid')
  uuid: string;

  /** SHA-256 of the token: high-entropy random values need no slow hash, and lookups stay indexable. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'family_uuid', type: 'uuid' })
  familyUuid: string;

  @Column({ name: 'tenant_uuid', type: 'uuid' })
  tenantUuid: string;

  @Column({ name: 'account_kind', type: 'varchar', length: 8 })
  accountKind: AccountKind;

  @Column({ name: 'account_uuid', type: 'uuid' })
  accountUuid: string;

  @Column({ type: 'varchar', length: 16 })
  context: EntityType;

  @Column({ name: 'data_uuid', type: 'uuid', nullable: true })
  dataUuid: string | null;

  /** The permissions the login asked for (RFC 6749 `scope`), space-separated; null: every permission of the role. */
  @Column({ type: 'text', nullable: true })
  scope: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
