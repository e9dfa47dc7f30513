import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { UserEntityType } from '@cpc/contracts';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  uuid: string;

  @Column({ name: 'tenant_uuid', type: 'uuid' })
  tenantUuid: string;

  /** Stored normalized (normalizeLoginName: NFKC, lower case, trimmed), as every login looks it up. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'entity_type', type: 'varchar', length: 16 })
  entityType: UserEntityType;

  @Column({ name: 'role_uuid', type: 'uuid' })
  roleUuid: string;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
