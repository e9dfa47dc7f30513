/** Sensor: a measuring device at a location or attached to a controller. */

export const SENSOR_KINDS = [
  'temperature',
  'humidity',
  'energy_meter',
  'power_meter',
  'occupancy',
  'smoke',
  'water_leak',
  'door',
  'other',
] as const;
export type SensorKind = (typeof SENSOR_KINDS)[number];

/** Exactly one of location_uuid and controller_uuid. */
export interface CreateSensorPayload {
  location_uuid?: string;
  controller_uuid?: string;
  kind: SensorKind;
  name: string;
  serial_number?: string | null;
}

export interface UpdateSensorPayload {
  kind?: SensorKind;
  name?: string;
  serial_number?: string | null;
}

export interface SensorFilter {
  location_uuid?: string;
  controller_uuid?: string;
  kind?: SensorKind;
  name?: string;
  serial_number?: string;
}

export interface SensorView {
  uuid: string;
  location_uuid: string | null;
  controller_uuid: string | null;
  kind: SensorKind;
  name: string;
  serial_number: string | null;
  created_at: string;
  updated_at: string;
}
