import { type FacilityTypeRef, LOCATION_TEXT_FIELDS, type LocationView } from '@cpc/contracts';
import type { LocationEntity } from '../entities/index.js';
import { toDateOnly } from '../shared/time-format.js';

/** What a location's view adds to its row: derived from the controllers, plugs and facility types that point at it. */
export interface LocationRelations {
  controllerUuids: string[];
  chargePointCount: number;
  facilityTypes: FacilityTypeRef[];
}

/** A decimal as the spec shows height: always two decimals. */
function twoDecimals(value: string | null): string | null {
  return value === null ? null : Number(value).toFixed(2);
}

export function toLocationView(location: LocationEntity, relations: LocationRelations): LocationView {
  const texts = Object.fromEntries(LOCATION_TEXT_FIELDS.map((field) => [field, location[field]])) as Pick<
    LocationView,
    (typeof LOCATION_TEXT_FIELDS)[number]
  >;
  return {
    uuid: location.uuid,
    created_at: toDateOnly(location.createdAt),
    updated_at: toDateOnly(location.updatedAt),
    modification_date: location.modification_date,
    controllers: relations.controllerUuids.map((controller_uuid) => ({ controller_uuid })),
    charge_point_count: relations.chargePointCount,
    name: location.name,
    status: location.status,
    ...texts,
    country_code: location.country_code,
    latitude: location.latitude,
    longitude: location.longitude,
    height: twoDecimals(location.height),
    support_hotline: location.support_hotline,
    publish: location.publish,
    website: location.website,
    contract_id: location.contract_id,
    facility_types: relations.facilityTypes,
  };
}
