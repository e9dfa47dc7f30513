import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LocationStatus } from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'locations' })
export class LocationEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('varchar') name: string;
  @Column('varchar') status: LocationStatus;
  @Column('varchar', { nullable: true }) street: string | null;
  @Column('varchar', { name: 'house_number', nullable: true }) house_number: string | null;
  @Column('varchar', { name: 'postal_code', nullable: true }) postal_code: string | null;
  @Column('varchar', { nullable: true }) city: string | null;
  @Column('varchar', { nullable: true }) district: string | null;
  @Column('varchar', { name: 'rural_district', nullable: true }) rural_district: string | null;
  @Column('char', { name: 'country_code', length: 3, nullable: true }) country_code: string | null;
  /** numeric: the pg driver hands decimals over as strings, exactly as stored. */
  @Column('numeric', { nullable: true }) latitude: string | null;
  @Column('numeric', { nullable: true }) longitude: string | null;
  @Column('numeric', { precision: 8, scale: 2, nullable: true }) height: string | null;
  @Column('varchar', { nullable: true }) operator: string | null;
  @Column('varchar', { name: 'support_hotline', nullable: true }) support_hotline: string | null;
  @Column('boolean') publish: boolean;
  @Column('varchar', { nullable: true }) identifier: string | null;
  @Column('text', { nullable: true }) directions: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) comment: string | null;
  @Column('text', { name: 'comment_usage_agreement', nullable: true }) comment_usage_agreement: string | null;
  @Column('varchar', { nullable: true }) website: string | null;
  @Column('varchar', { nullable: true }) partner: string | null;
  @Column('varchar', { nullable: true }) accounter: string | null;
  @Column('varchar', { name: 'level_measurement', nullable: true }) level_measurement: string | null;
  @Column('varchar', { name: 'network_carrier', nullable: true }) network_carrier: string | null;
  @Column('varchar', { name: 'available_power', nullable: true }) available_power: string | null;
  @Column('text', { name: 'additional_conditions', nullable: true }) additional_conditions: string | null;
  @Column('varchar', { name: 'max_standing_time', nullable: true }) max_standing_time: string | null;
  @Column('integer', { name: 'contract_id', nullable: true }) contract_id: number | null;
  /** YYYY-MM-DD (TypeORM hands `date` columns over as strings). */
  @Column('date', { name: 'modification_date' }) modification_date: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
