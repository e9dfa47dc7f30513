import type { ControllerView, LocationView, PlugView, SensorView } from '@cpc/contracts';
import type { ApiResponse, ApiTestClient } from './api-test-client.js';

let sequence = 0;
/** A short suffix that keeps names and OCPP identities apart between tests. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}`;
}

export const OCPP_PASSWORD = 'charge-point-secret-01';

/** A location body with every writable field set, each in its format. */
export function fullLocationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: unique('Harbour car park'),
    status: 'in_questioning',
    street: 'Am Sandtorkai',
    house_number: '7a',
    postal_code: '20457',
    city: 'Hamburg',
    district: 'HafenCity',
    rural_district: 'Hamburg-Mitte',
    country_code: 'DEU',
    latitude: '53.5436',
    longitude: '9.9883',
    height: '8.5',
    operator: 'ACME Charging GmbH',
    support_hotline: '+49 40 1234-5678',
    publish: true,
    identifier: 'DE*ACM*L0001',
    directions: 'Level -1, next to the lifts',
    description: 'Twelve bays under the warehouse',
    comment: 'Barrier opens by phone',
    comment_usage_agreement: 'Usage agreement signed 2024',
    website: 'https://charging.acme.example/harbour',
    partner: 'Harbour Estates',
    accounter: 'ACME Billing',
    level_measurement: 'calibrated meter',
    network_carrier: 'Stromnetz Hamburg',
    available_power: '400 kW',
    additional_conditions: 'Parking fee applies',
    max_standing_time: '4 h',
    contract_id: 4711,
    modification_date: '2025-03-14',
    ...overrides,
  };
}

/** Creates assets through the HTTP API as one caller, failing loudly when the API refuses. */
export class AssetsTestData {
  constructor(
    private readonly api: ApiTestClient,
    private readonly token: string,
  ) {}

  private async create<T>(path: string, body: Record<string, unknown>, key: string): Promise<T> {
    const response: ApiResponse<Record<string, T>> = await this.api.call('POST', `/api/v1/assets/${path}`, {
      token: this.token,
      body,
    });
    if (response.status !== 201) {
      throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
    return response.body[key];
  }

  location(overrides: Record<string, unknown> = {}): Promise<LocationView> {
    return this.create('locations', { name: unique('Location'), ...overrides }, 'location');
  }

  fullLocation(overrides: Record<string, unknown> = {}): Promise<LocationView> {
    return this.create('locations', fullLocationBody(overrides), 'location');
  }

  facilityType(name = unique('Facility')): Promise<{ uuid: string; name: string }> {
    return this.create('facility-types', { name }, 'facility_type');
  }

  controller(locationUuid: string, overrides: Record<string, unknown> = {}): Promise<ControllerView> {
    return this.create(
      'controllers',
      {
        location_uuid: locationUuid,
        name: unique('Wallbox'),
        ocpp_identity: unique('CP'),
        ocpp_password: OCPP_PASSWORD,
        ...overrides,
      },
      'controller',
    );
  }

  plug(
    controllerUuid: string,
    connectorId: number,
    overrides: Record<string, unknown> = {},
  ): Promise<PlugView> {
    return this.create(
      'plugs',
      {
        controller_uuid: controllerUuid,
        connector_id: connectorId,
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
        ...overrides,
      },
      'plug',
    );
  }

  sensor(
    parent: { location_uuid: string } | { controller_uuid: string },
    overrides: Record<string, unknown> = {},
  ): Promise<SensorView> {
    return this.create(
      'sensors',
      { kind: 'temperature', name: unique('Sensor'), ...parent, ...overrides },
      'sensor',
    );
  }

  /** A location with one controller, its plugs and a sensor on each. */
  async site(plugs = 2): Promise<{
    location: LocationView;
    controller: ControllerView;
    plugs: PlugView[];
    sensors: SensorView[];
  }> {
    const location = await this.location();
    const controller = await this.controller(location.uuid);
    const created: PlugView[] = [];
    for (let connectorId = 1; connectorId <= plugs; connectorId += 1) {
      created.push(await this.plug(controller.uuid, connectorId));
    }
    const sensors = [
      await this.sensor({ location_uuid: location.uuid }),
      await this.sensor({ controller_uuid: controller.uuid }),
    ];
    return { location, controller, plugs: created, sensors };
  }
}
