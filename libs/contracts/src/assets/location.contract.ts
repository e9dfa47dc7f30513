/** Location: a site with charging equipment. Field names and formats as the spec's Location table. */

export const LOCATION_STATUSES = [
  'in_questioning',
  'planned',
  'in_construction',
  'active',
  'inactive',
  'decommissioned',
] as const;
export type LocationStatus = (typeof LOCATION_STATUSES)[number];

/** Writable free-text fields of a location (all nullable strings). */
export const LOCATION_TEXT_FIELDS = [
  'street',
  'house_number',
  'postal_code',
  'city',
  'district',
  'rural_district',
  'operator',
  'identifier',
  'directions',
  'description',
  'comment',
  'comment_usage_agreement',
  'partner',
  'accounter',
  'level_measurement',
  'network_carrier',
  'available_power',
  'additional_conditions',
  'max_standing_time',
] as const;
export type LocationTextField = (typeof LOCATION_TEXT_FIELDS)[number];

/** What a caller may write; formats already validated by the api-gateway. */
export type LocationWritableFields = { [K in LocationTextField]?: string | null } & {
  name?: string;
  status?: LocationStatus;
  /** ISO 3166-1 alpha-3, upper case. */
  country_code?: string | null;
  /** Decimal strings. */
  latitude?: string | null;
  longitude?: string | null;
  height?: string | null;
  /** E.164, e.g. +4930123456. */
  support_hotline?: string | null;
  publish?: boolean;
  website?: string | null;
  contract_id?: number | null;
  /** YYYY-MM-DD */
  modification_date?: string;
  facility_type_uuids?: string[];
};

export type CreateLocationPayload = LocationWritableFields & { name: string };
export type UpdateLocationPayload = LocationWritableFields;

export interface LocationFilter {
  name?: string;
  status?: LocationStatus;
  city?: string;
  postal_code?: string;
  country_code?: string;
  identifier?: string;
  publish?: boolean;
  facility_type_uuid?: string;
}

export interface FacilityTypeRef {
  uuid: string;
  name: string;
}

export type LocationView = { [K in LocationTextField]: string | null } & {
  uuid: string;
  /** YYYY-MM-DD */
  created_at: string;
  updated_at: string;
  modification_date: string;
  controllers: { controller_uuid: string }[];
  charge_point_count: number;
  name: string;
  status: LocationStatus;
  country_code: string | null;
  latitude: string | null;
  longitude: string | null;
  /** Two decimals. */
  height: string | null;
  support_hotline: string | null;
  publish: boolean;
  website: string | null;
  contract_id: number | null;
  facility_types: FacilityTypeRef[];
};

/** The per-tenant catalogue of facility types a location can list. */
export interface CreateFacilityTypePayload {
  name: string;
}

export interface FacilityTypeFilter {
  name?: string;
}

export interface FacilityTypeView {
  uuid: string;
  name: string;
  created_at: string;
}
