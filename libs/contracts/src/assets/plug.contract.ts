/** Plug: a connector of a controller. */

/** Connector standards (the OCPI ConnectorType list, lower case). */
export const PLUG_STANDARDS = [
  'chademo',
  'chaoji',
  'domestic_f',
  'gbt_ac',
  'gbt_dc',
  'iec_60309_2_single_16',
  'iec_60309_2_three_16',
  'iec_60309_2_three_32',
  'iec_60309_2_three_64',
  'iec_62196_t1',
  'iec_62196_t1_combo',
  'iec_62196_t2',
  'iec_62196_t2_combo',
  'iec_62196_t3a',
  'iec_62196_t3c',
  'nacs',
  'pantograph_bottom_up',
  'pantograph_top_down',
  'tesla_s',
] as const;
export type PlugStandard = (typeof PLUG_STANDARDS)[number];

export const POWER_TYPES = ['ac_1_phase', 'ac_2_phase', 'ac_3_phase', 'dc'] as const;
export type PowerType = (typeof POWER_TYPES)[number];

/** Plug status before the charge point reported any. */
export const UNKNOWN_PLUG_STATUS = 'unknown';

export const PLUG_SORT_FIELDS = ['created_at', 'name', 'connector_id'] as const;
export type PlugSortField = (typeof PLUG_SORT_FIELDS)[number];

export interface CreatePlugPayload {
  controller_uuid: string;
  connector_id: number;
  /** Defaults to connector_id. */
  evse_id?: number;
  name?: string | null;
  standard: PlugStandard;
  power_type: PowerType;
  max_power_kw: number;
}

export interface UpdatePlugPayload {
  connector_id?: number;
  evse_id?: number;
  name?: string | null;
  standard?: PlugStandard;
  power_type?: PowerType;
  max_power_kw?: number;
}

export interface PlugFilter {
  controller_uuid?: string;
  location_uuid?: string;
  connector_id?: number;
  evse_id?: number;
  standard?: PlugStandard;
  power_type?: PowerType;
  status?: string;
}

export interface PlugView {
  uuid: string;
  controller_uuid: string;
  location_uuid: string;
  connector_id: number;
  evse_id: number;
  name: string | null;
  standard: PlugStandard;
  power_type: PowerType;
  max_power_kw: number;
  /** As the charge point last reported it (e.g. `Available`, `Charging`), `unknown` before. */
  status: string;
  status_updated_at: string | null;
  created_at: string;
  updated_at: string;
}
