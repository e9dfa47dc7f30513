import { enumOf, type OpenApiDocument } from './command-schemas';
import { errorsByTopField, ApiError } from './errors';
import {
  ENERGY,
  energyDelivered,
  formatPower,
  niceCeiling,
  POWER,
  powerFromEnergy,
  seriesOf,
} from './meter-values';
import type { MeterValue } from './types';

const sample = (
  sampled_at: string,
  measurand: string,
  value: number,
  unit: string,
  phase: string | null = null,
) =>
  ({
    sampled_at,
    measurand,
    phase,
    location: 'Outlet',
    unit,
    context: 'Sample.Periodic',
    value,
    evse_id: null,
    connector_id: 1,
  }) as MeterValue;

describe('the charts of a charging session', () => {
  it('reads power in W, summing phases, the total winning over the phases of the same moment', () => {
    const values = [
      sample('2026-03-01T08:02:00Z', POWER, 2, 'kW', 'L1'),
      sample('2026-03-01T08:02:00Z', POWER, 2.5, 'kW', 'L2'),
      sample('2026-03-01T08:01:00Z', POWER, 7400, 'W'),
      sample('2026-03-01T08:01:00Z', POWER, 2000, 'W', 'L1'),
      sample('2026-03-01T08:01:00Z', ENERGY, 1000, 'Wh'),
      sample('not a time', POWER, 1, 'W'),
    ];
    expect(seriesOf(values, POWER)).toEqual([
      { t: Date.parse('2026-03-01T08:01:00Z'), v: 7400 },
      { t: Date.parse('2026-03-01T08:02:00Z'), v: 4500 },
    ]);
  });

  it('counts energy from the session start, and works out power from it when none is reported', () => {
    const values = [
      sample('2026-03-01T08:00:00Z', ENERGY, 12, 'kWh'),
      sample('2026-03-01T08:30:00Z', ENERGY, 15500, 'Wh'),
    ];
    const energy = energyDelivered(values, 12_000);
    expect(energy.map((point) => point.v)).toEqual([0, 3500]);
    expect(energyDelivered(values, null).map((point) => point.v)).toEqual([0, 3500]);
    expect(powerFromEnergy(energy)).toEqual([{ t: Date.parse('2026-03-01T08:30:00Z'), v: 7000 }]);
    expect(powerFromEnergy([])).toEqual([]);
  });

  it('rounds the value axis up to 1, 2, 2.5 or 5 times a power of ten, and says power in W or kW', () => {
    expect([0, 0.7, 7, 19, 22, 4100, 7400, 10_000].map(niceCeiling)).toEqual([
      1, 1, 10, 20, 25, 5000, 10_000, 10_000,
    ]);
    expect([350.4, 7400, -2500].map(formatPower)).toEqual(['350 W', '7.4 kW', '-2.5 kW']);
  });
});

describe('webhook forms', () => {
  it('puts a 422 on a list item beside the list field', () => {
    const error = new ApiError(422, {
      errors: [
        { errorKey: 'invalid', message: 'not an event type', parameter: 'event_types.0' },
        { errorKey: 'forbidden_target', message: 'resolves to a private address', parameter: 'url' },
        { errorKey: 'invalid', message: 'not an event type either', parameter: 'event_types.2' },
      ],
    });
    expect(errorsByTopField(error)).toEqual({
      event_types: 'not an event type; not an event type either',
      url: 'resolves to a private address',
    });
    expect(errorsByTopField(new Error('no'))).toEqual({});
  });

  it('reads the allowed values of a list property from its items', () => {
    const document = {
      components: {
        schemas: {
          CreateWebhookBody: {
            type: 'object',
            properties: {
              event_types: { type: 'array', items: { type: 'string', enum: ['ping', 'pong'] } },
            },
          },
        },
      },
    } as unknown as OpenApiDocument;
    expect(enumOf(document, 'CreateWebhookBody', 'event_types')).toEqual(['ping', 'pong']);
  });
});
