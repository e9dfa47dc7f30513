import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { BoundedWork } from '@cpc/bounded-work';
import { type CommandPage, CommandSubjects, type CommandView } from '@cpc/contracts';
import { COMMAND_ROW_COLUMNS } from '../../repositories/commands.repository.js';
import { toCommandView } from '../command-record.js';
import type { CommandRow } from '../command-row.js';
import { COMMAND_SERVICE_TUNING } from '../../command-service.config.js';
import { CommandServiceHarness } from '../testing/command-service-harness.js';

const harness = new CommandServiceHarness();
const tenant = randomUUID();
const target = randomUUID();

beforeAll(() => harness.start(), 60_000);
afterAll(() => harness.stop());

/**
 * The list and the single read format a command's view in SQL; it must be exactly the view toCommandView gives the
 * status events, byte for byte: fields in the same order, dates in UTC truncated to the second.
 */
describe('reading commands', () => {
  it('answers list and get with the very view of the status events', async () => {
    // The open one has no next_attempt_at, so the dispatcher never picks it up while the test reads it.
    // Three in one second, their uuids in the opposite order: the page is ordered by the instant, not the text.
    const seeds: [string, string, string | null, string | null, string?][] = [
      ['accepted', '2025-05-04 10:20:30.999999+00', '{"status":"Accepted"}', '2025-05-04 12:20:31.5+02'],
      ['rejected', '2025-05-04 10:20:30.5+00', '{"status":"Rejected"}', '2025-05-04 10:20:31+00', '0'],
      ['timeout', '2025-05-04 10:20:30.000001+00', '{"error":"timeout"}', '2025-05-04 10:21:00+00', 'f'],
      ['failed', '2024-12-31 23:59:59.000001-01', '{"error":"connection_lost"}', '2025-01-01 00:00:00+00'],
      ['pending', '2025-06-01 00:00:00+00', null, null],
    ];
    for (const [status, createdAt, result, completedAt, uuidDigit] of seeds) {
      const uuid = uuidDigit
        ? `${uuidDigit.repeat(8)}-${uuidDigit.repeat(4)}-4${uuidDigit.repeat(3)}-8${uuidDigit.repeat(3)}-${uuidDigit.repeat(12)}`
        : randomUUID();
      await harness.sql(
        `INSERT INTO control.commands (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
           parameters, status, result, valid_until, created_at, completed_at, attempts)
         VALUES ($1, $2, 'clear_cache', 'controller', $3, $3, '{}', '{}', $4, $5, now() + interval '1 day', $6, $7, 0)`,
        [uuid, tenant, target, status, result, createdAt, completedAt],
      );
    }
    const rows = await harness.sql<CommandRow>(
      `SELECT ${COMMAND_ROW_COLUMNS} FROM control.commands WHERE tenant_uuid = $1 ORDER BY created_at DESC, uuid DESC`,
      [tenant],
    );
    const expected = rows.map((row) => JSON.stringify(toCommandView(row)));

    const page = await harness.call<CommandPage>(
      CommandSubjects.list,
      { page: 1, limit: 50, orderBy: [], filter: { target_uuid: target } },
      tenant,
    );
    expect(page.items.map((item) => JSON.stringify(item))).toEqual(expected);
    expect(page.items.map((item) => item.status)).toEqual([
      'pending',
      'accepted',
      'rejected',
      'timeout',
      'failed',
    ]);
    expect(page.items[1]).toMatchObject({
      created_at: '2025-05-04T10:20:30Z',
      completed_at: '2025-05-04T10:20:31Z',
    });
    expect(page.pagination).toEqual({
      page: 1,
      total_pages: 1,
      page_size: 50,
      has_more: false,
      cursor: {},
    });
    for (const [index, row] of rows.entries()) {
      const view = await harness.call<CommandView>(CommandSubjects.get, { uuid: row.uuid }, tenant);
      expect(JSON.stringify(view)).toBe(expected[index]);
    }
  });
});

describe('list reads at once', () => {
  it('runs at most listReadsAtOnce list reads at a time, so creations keep connections of their own', async () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the instance as `this`
    const run = BoundedWork.prototype.run;
    let inside = 0;
    let most = 0;
    const spy = jest.spyOn(BoundedWork.prototype, 'run').mockImplementation(function <T>(
      this: BoundedWork,
      work: () => Promise<T>,
    ) {
      return run.call(this, async () => {
        inside += 1;
        most = Math.max(most, inside);
        try {
          // Each read held a while, as a deep page is: the others pile up behind the bound.
          await new Promise((resolve) => setTimeout(resolve, 50));
          return await work();
        } finally {
          inside -= 1;
        }
      });
    });
    try {
      const reads = 4 * COMMAND_SERVICE_TUNING.listReadsAtOnce;
      const pages = await Promise.all(
        Array.from({ length: reads }, (_, index) =>
          harness.call<CommandPage>(
            CommandSubjects.list,
            index % 2 === 0
              ? { page: 1, limit: 50, orderBy: [], filter: {} }
              : { page: 1, limit: 50, orderBy: [], filter: { target_uuid: target } },
            tenant,
          ),
        ),
      );
      expect(pages).toHaveLength(reads);
      expect(spy).toHaveBeenCalledTimes(reads);
      expect(most).toBe(COMMAND_SERVICE_TUNING.listReadsAtOnce);
    } finally {
      spy.mockRestore();
    }
  });
});
