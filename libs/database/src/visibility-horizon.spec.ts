import type { DataSource, EntityManager } from 'typeorm';
import { testServerDataSource } from './testing/test-server.js';
import {
  insertingTransactionMark,
  insertMarker,
  markInsertingTransaction,
  visibilityHorizonStatement,
} from './visibility-horizon.js';

describe('the visibility horizon', () => {
  it('counts only the inserts that start with the marker of their table', () => {
    const marker = insertMarker('control.commands');
    expect(marker).toBe('/* inserts control.commands */');
    const { text } = visibilityHorizonStatement('control.commands').query({});
    expect(text).toContain(`starts_with(query, '${marker}')`);
    expect(text).toContain(`application_name = current_setting('application_name')`);
    // The horizon statement starts with SELECT, so a concurrent horizon read never counts as an insert.
    expect(text.trimStart().startsWith('SELECT')).toBe(true);
  });

  it('refuses what is not a schema-qualified table name (the marker goes into SQL text)', () => {
    expect(() => insertMarker("control.commands'")).toThrow('not a table name');
    expect(() => insertMarker('commands')).toThrow('not a table name');
    expect(() => insertingTransactionMark("assets.plugs'")).toThrow('not a table name');
    expect(() => visibilityHorizonStatement('plugs', 'transaction')).toThrow('not a table name');
  });

  it('counts, for inserts marked per transaction, the transactions whose application_name the mark set', () => {
    const marked = `left(current_setting('application_name') || ' inserts assets.plugs', 63)`;
    const mark = insertingTransactionMark('assets.plugs').query({}).text;
    // set_config(…, true) is SET LOCAL: the transaction's own, reset once it ended.
    expect(mark).toMatch(/^SELECT set_config\('application_name',[\s\S]*\s+true\) AS marked$/);
    expect(mark).toContain(`ELSE ${marked} END`);
    const { text } = visibilityHorizonStatement('assets.plugs', 'transaction').query({});
    expect(text).toContain(`application_name = ${marked}`);
    expect(text).not.toContain('starts_with(query');
  });

  it('counts both kinds of insert of a table marked both ways, and keeps one kind as it was', () => {
    const { text } = visibilityHorizonStatement('control.charging_sessions', [
      'statement',
      'transaction',
    ]).query({});
    expect(text).toContain(`starts_with(query, '${insertMarker('control.charging_sessions')}')`);
    expect(text).toContain(
      `OR (application_name = left(current_setting('application_name') || ' inserts control.charging_sessions', 63)`,
    );
    expect(visibilityHorizonStatement('control.commands', ['statement']).text).toBe(
      visibilityHorizonStatement('control.commands').text,
    );
    expect(() => visibilityHorizonStatement('control.commands', [])).toThrow('no marking');
  });

  it('marks only inside a transaction, where SET LOCAL lasts until the transaction ends', async () => {
    const mark = insertingTransactionMark('assets.plugs');
    const outside = { queryRunner: { isTransactionActive: false } } as unknown as EntityManager;
    await expect(markInsertingTransaction(outside, mark)).rejects.toThrow('inside its transaction only');
    const noRunner = {} as EntityManager;
    await expect(markInsertingTransaction(noRunner, mark)).rejects.toThrow('inside its transaction only');
  });

  describe('on a real server', () => {
    let dataSource: DataSource;
    const applicationName = () =>
      dataSource.query<{ name: string }[]>(`SELECT current_setting('application_name') AS name`);

    beforeAll(async () => {
      dataSource = await testServerDataSource(1);
      await dataSource.query(`SET application_name = 'cpc-spec'`);
    });

    afterAll(() => dataSource?.destroy());

    it('marks the transaction once however often it is marked for its table, until the transaction ends', async () => {
      await dataSource.transaction(async (manager) => {
        await markInsertingTransaction(manager, insertingTransactionMark('assets.plugs'));
        await markInsertingTransaction(manager, insertingTransactionMark('assets.plugs'));
        expect(await manager.query(`SELECT current_setting('application_name') AS name`)).toEqual([
          { name: 'cpc-spec inserts assets.plugs' },
        ]);
      });
      expect(await applicationName()).toEqual([{ name: 'cpc-spec' }]);
    });
  });
});
