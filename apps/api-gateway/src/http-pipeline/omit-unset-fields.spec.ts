import { stringifyWithoutUnset } from './omit-unset-fields.js';

describe('stringifyWithoutUnset', () => {
  it('leaves out null properties at every depth and keeps everything else', () => {
    const body = {
      location: {
        name: 'Harbour',
        street: null,
        contract_id: 0,
        publish: false,
        note: '',
        nested: { a: null, b: 1 },
      },
      list: [{ x: null, y: 2 }],
      pagination: { cursor: { next: null, prev: 'abc' } },
    };
    expect(JSON.parse(stringifyWithoutUnset(body))).toEqual({
      location: { name: 'Harbour', contract_id: 0, publish: false, note: '', nested: { b: 1 } },
      list: [{ y: 2 }],
      pagination: { cursor: { prev: 'abc' } },
    });
  });

  it('keeps the nulls of arrays, whose positions mean something', () => {
    expect(stringifyWithoutUnset({ responses: [null, { status: 'Accepted' }] })).toBe(
      '{"responses":[null,{"status":"Accepted"}]}',
    );
  });

  it('answers JSON for a body that is null itself', () => {
    expect(stringifyWithoutUnset(null)).toBe('null');
  });
});
