import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'assets', name: 'facility_types' })
export class FacilityTypeEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('varchar') name: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}

/** Which facility types a location lists. */
@Entity({ schema: 'assets', name: 'location_facility_types' })
export class LocationFacilityTypeEntity {
  @PrimaryColumn('uuid', { name: 'location_uuid' }) locationUuid: string;
  @PrimaryColumn('uuid', { name: 'facility_type_uuid' }) facilityTypeUuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
}
