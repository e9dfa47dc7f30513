import type { EntityManager } from 'typeorm';
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
    expect(mark).toBe(`SELECT set_config('application_name', ${marked}, true) AS marked`);
    const { text } = visibilityHorizonStatement('assets.plugs', 'transaction').query({});
    expect(text).toContain(`application_name = ${marked}`);
    expect(text).not.toContain('starts_with(query');
  });

  it('marks only inside a transaction, where SET LOCAL lasts until the transaction ends', async () => {
    const mark = insertingTransactionMark('assets.plugs');
    const outside = { queryRunner: { isTransactionActive: false } } as unknown as EntityManager;
    await expect(markInsertingTransaction(outside, mark)).rejects.toThrow('inside its transaction only');
    const noRunner = {} as EntityManager;
    await expect(markInsertingTransaction(noRunner, mark)).rejects.toThrow('inside its transaction only');
  });
});
