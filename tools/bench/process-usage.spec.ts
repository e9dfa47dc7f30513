import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findServicePids, readProcess } from './process-usage.js';

function fakeProc(processes: Record<number, { comm: string; cmdline: string; environ: string[] }>): string {
  const root = mkdtempSync(join(tmpdir(), 'proc-'));
  for (const [pid, process] of Object.entries(processes)) {
    mkdirSync(join(root, pid));
    // utime 250 ticks, stime 50 ticks after the name
    writeFileSync(
      join(root, pid, 'stat'),
      `${pid} (${process.comm}) S 1 1 1 0 -1 0 0 0 0 0 250 50 0 0 20 0 1`,
    );
    writeFileSync(join(root, pid, 'status'), 'Name:\tnode\nVmRSS:\t   2048 kB\nThreads:\t7\n');
    writeFileSync(join(root, pid, 'cmdline'), process.cmdline);
    writeFileSync(join(root, pid, 'environ'), process.environ.join('\0'));
  }
  return root;
}

describe('process readings from /proc', () => {
  const proc = fakeProc({
    10: {
      comm: 'node (x) y',
      cmdline: 'node\0dist/apps/ocpp-gateway/src/main.js',
      environ: ['API_PORT=3000'],
    },
    11: { comm: 'node', cmdline: 'node\0dist/apps/ocpp-gateway/src/main.js', environ: ['API_PORT=4000'] },
    12: { comm: 'node', cmdline: 'node\0dist/apps/api-gateway/src/main.js', environ: ['API_PORT=3000'] },
  });

  it('reads CPU seconds past a command name with spaces and parentheses, and the resident memory', () => {
    expect(readProcess(10, proc)).toEqual({ cpuSeconds: 3, rssBytes: 2048 * 1024 });
  });

  it('finds the services of the platform on the given API port only', () => {
    expect(findServicePids(['api-gateway', 'ocpp-gateway'], 3000, proc)).toEqual(
      new Map([
        ['ocpp-gateway', 10],
        ['api-gateway', 12],
      ]),
    );
  });
});
