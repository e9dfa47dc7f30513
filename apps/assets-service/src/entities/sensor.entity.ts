import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SensorKind } from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'sensors' })
export class SensorEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('uuid', { name: 'location_uuid', nullable: true }) locationUuid: string | null;
  @Column('uuid', { name: 'controller_uuid', nullable: true }) controllerUuid: string | null;
  @Column('varchar') kind: SensorKind;
  @Column('varchar') name: string;
  @Column('varchar', { name: 'serial_number', nullable: true }) serialNumber: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
