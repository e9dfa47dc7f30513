import { insertMarker, visibilityHorizonStatement } from './visibility-horizon.js';

describe('the visibility horizon', () => {
  it('counts only the inserts that start with the marker of their table', () => {
    const marker = insertMarker('control.commands');
    expect(marker).toBe('/* inserts control.commands */');
    const { text } = visibilityHorizonStatement('control.commands').query({});
    expect(text).toContain(`starts_with(query, '${marker}')`);
    // The horizon statement starts with SELECT, so a concurrent horizon read never counts as an insert.
    expect(text.trimStart().startsWith('SELECT')).toBe(true);
  });

  it('refuses what is not a schema-qualified table name (the marker goes into SQL text)', () => {
    expect(() => insertMarker("control.commands'")).toThrow('not a table name');
    expect(() => insertMarker('commands')).toThrow('not a table name');
  });
});
