import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlugStandard, PowerType } from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'plugs' })
export class PlugEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('uuid', { name: 'controller_uuid' }) controllerUuid: string;
  @Column('integer', { name: 'connector_id' }) connectorId: number;
  @Column('integer', { name: 'evse_id' }) evseId: number;
  @Column('varchar', { nullable: true }) name: string | null;
  @Column('varchar') standard: PlugStandard;
  @Column('varchar', { name: 'power_type' }) powerType: PowerType;
  @Column('numeric', { name: 'max_power_kw', precision: 8, scale: 2 }) maxPowerKw: string;
  @Column('varchar') status: string;
  @Column('varchar', { name: 'error_code', nullable: true }) errorCode: string | null;
  @Column('timestamptz', { name: 'status_updated_at', nullable: true }) statusUpdatedAt: Date | null;
  /** The stream sequence of that status: breaks ties of status_updated_at. */
  @Column('bigint', { name: 'status_updated_seq', nullable: true }) statusUpdatedSeq: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
