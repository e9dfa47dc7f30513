import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { IdTokenStatus, IdTokenType } from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'id_tokens' })
export class IdTokenEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('varchar', { name: 'id_token' }) idToken: string;
  @Column('varchar') type: IdTokenType;
  @Column('varchar') status: IdTokenStatus;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('uuid', { name: 'group_uuid', nullable: true }) groupUuid: string | null;
  @Column('varchar', { name: 'contract_reference', nullable: true }) contractReference: string | null;
  @Column('uuid', { name: 'allowed_location_uuids', array: true }) allowedLocationUuids: string[];
  @Column('bigint') revision: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
