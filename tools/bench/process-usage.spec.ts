import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findServicePids, readMachine, readProcess } from './process-usage.js';

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

describe('machine readings from /proc/stat', () => {
  it('sums the CPU time of all cores and counts all but idle and iowait as busy', () => {
    const root = mkdtempSync(join(tmpdir(), 'proc-'));
    // user nice system idle iowait irq softirq steal guest guest_nice
    writeFileSync(
      join(root, 'stat'),
      'cpu  300 0 100 500 50 20 30 0 0 0\ncpu0 150 0 50 250 25 10 15 0 0 0\n',
    );
    expect(readMachine(root)).toEqual({ totalSeconds: 10, busySeconds: 4.5 });
  });
});
