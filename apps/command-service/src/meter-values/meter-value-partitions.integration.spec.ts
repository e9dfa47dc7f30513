import { randomUUID } from 'node:crypto';
import { loadCommandServiceConfig } from '../command-service.config.js';
import {
  type ControlSchemaUnderTest,
  controlSchemaUnderTest,
} from '../migrations/control-schema-under-test.js';
import { MeterValuePartitions } from './meter-value-partitions.js';

let schema: ControlSchemaUnderTest;
let partitions: MeterValuePartitions;

beforeAll(async () => {
  schema = await controlSchemaUnderTest();
  const config = loadCommandServiceConfig({
    NATS_URL: 'nats://127.0.0.1:4222',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused',
    METER_VALUES_RETENTION_MONTHS: '3',
  });
  partitions = new MeterValuePartitions(schema.dataSource, config);
});

afterAll(() => schema?.drop());

async function partitionNames(): Promise<string[]> {
  const rows = await schema.dataSource.query<{ relname: string }[]>(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'control.meter_values'::regclass ORDER BY c.relname`,
  );
  return rows.map((row) => row.relname);
}

function insertSample(sampledAt: string): Promise<unknown> {
  return schema.dataSource.query(
    `INSERT INTO control.meter_values (tenant_uuid, controller_uuid, sampled_at, measurand, location, unit, context,
                                       value, event_id, sample_index)
     VALUES ($1, $2, $3, 'Energy.Active.Import.Register', 'Outlet', 'Wh', 'Sample.Periodic', 1, $4, 0)`,
    [randomUUID(), randomUUID(), sampledAt, randomUUID()],
  );
}

async function rowsIn(partition: string): Promise<number> {
  const [row] = await schema.dataSource.query<{ count: number }[]>(
    `SELECT count(*)::integer AS count FROM control.${partition}`,
  );
  return row.count;
}

describe('the monthly partitions of control.meter_values', () => {
  it('creates last month to two months ahead, moving what the default partition held of them', async () => {
    // Before any month exists, everything lands in the default partition.
    await insertSample('2026-05-20T10:00:00Z');
    await insertSample('1970-01-01T00:00:00Z');
    expect(await partitionNames()).toEqual(['meter_values_default']);

    const changes = await partitions.maintain(new Date('2026-04-15T12:00:00Z'));
    expect(changes).toEqual({
      created: [
        'meter_values_p2026_03',
        'meter_values_p2026_04',
        'meter_values_p2026_05',
        'meter_values_p2026_06',
      ],
      dropped: [],
    });
    expect(await rowsIn('meter_values_p2026_05')).toBe(1);
    // The sample of a charge point whose clock says 1970 is past the retention: deleted from the default partition.
    expect(await rowsIn('meter_values_default')).toBe(0);

    await insertSample('2026-06-30T23:59:59Z');
    expect(await rowsIn('meter_values_p2026_06')).toBe(1);
    // Run again, nothing to do.
    expect(await partitions.maintain(new Date('2026-04-15T12:00:00Z'))).toEqual({ created: [], dropped: [] });
  });

  it('drops whole months once they are past the retention', async () => {
    const changes = await partitions.maintain(new Date('2026-07-01T00:00:00Z'));
    // Retention 3 months in July: May, June, July are kept.
    expect(changes).toEqual({
      created: ['meter_values_p2026_07', 'meter_values_p2026_08', 'meter_values_p2026_09'],
      dropped: ['meter_values_p2026_03', 'meter_values_p2026_04'],
    });
    expect(await partitionNames()).toEqual([
      'meter_values_default',
      'meter_values_p2026_05',
      'meter_values_p2026_06',
      'meter_values_p2026_07',
      'meter_values_p2026_08',
      'meter_values_p2026_09',
    ]);
  });
});
