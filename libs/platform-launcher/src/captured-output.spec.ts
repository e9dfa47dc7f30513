import { PassThrough } from 'node:stream';
import { CapturedOutput, type OutputStream, prefixedLineWriter } from './captured-output.js';

describe('CapturedOutput', () => {
  it('joins lines split across chunks, per stream, and passes each complete line on', () => {
    const seen: Array<[string, OutputStream]> = [];
    const output = new CapturedOutput({ onLine: (line, stream) => seen.push([line, stream]) });
    output.write('first li', 'stdout');
    output.write('oops\n', 'stderr');
    output.write('ne\r\nsecond\nthi', 'stdout');
    expect(seen).toEqual([
      ['oops', 'stderr'],
      ['first line', 'stdout'],
      ['second', 'stdout'],
    ]);
    output.flush();
    expect(output.text()).toBe('oops\nfirst line\nsecond\nthi');
  });

  it('keeps only the most recent lines', () => {
    const output = new CapturedOutput({ maxLines: 3 });
    output.write('1\n2\n3\n4\n5\n', 'stdout');
    expect(output.text()).toBe('3\n4\n5');
    expect(output.tail(2)).toBe('4\n5');
  });
});

describe('prefixedLineWriter', () => {
  it('prints stdout and stderr lines with the prefix to their own streams', () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const output = new CapturedOutput({ onLine: prefixedLineWriter('[auth-service] ', out, err) });
    output.write('started\n', 'stdout');
    output.write('warning\n', 'stderr');
    expect(String(out.read())).toBe('[auth-service] started\n');
    expect(String(err.read())).toBe('[auth-service] warning\n');
  });
});
