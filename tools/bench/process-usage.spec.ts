import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPidsByCommandLine,
  findServicePids,
  ProcessGroupCpu,
  readMachine,
  readProcess,
} from './process-usage.js';

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

  it('leaves out the processes it is told to (further replicas, counted apart)', () => {
    expect(findServicePids(['api-gateway', 'ocpp-gateway'], 3000, proc, new Set([10]))).toEqual(
      new Map([['api-gateway', 12]]),
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

describe('CPU of a changing group of processes', () => {
  function writeStat(root: string, pid: number, ticks: number): void {
    mkdirSync(join(root, String(pid)), { recursive: true });
    writeFileSync(
      join(root, String(pid), 'stat'),
      `${pid} (postgres) S 1 1 1 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1`,
    );
    writeFileSync(join(root, String(pid), 'status'), 'VmRSS:\t   1024 kB\n');
    writeFileSync(
      join(root, String(pid), 'cmdline'),
      `postgres: 15/main: postgres cpc_bench_1 127.0.0.1(${pid}) idle`,
    );
  }

  it('finds processes by their command line', () => {
    const root = mkdtempSync(join(tmpdir(), 'proc-'));
    writeStat(root, 20, 0);
    writeFileSync(join(root, '20', 'cmdline'), 'postgres: 15/main: postgres cpc_bench_1 127.0.0.1(1) idle');
    writeStat(root, 21, 0);
    writeFileSync(join(root, '21', 'cmdline'), 'postgres: 15/main: postgres cpc_bench_2 127.0.0.1(2) idle');
    expect(findPidsByCommandLine(['postgres: ', ' cpc_bench_1 '], root)).toEqual([20]);
  });

  it('counts a process that appears later from its start and keeps what an exited one had spent', () => {
    const root = mkdtempSync(join(tmpdir(), 'proc-'));
    let pids = [1];
    writeStat(root, 1, 100);
    const group = new ProcessGroupCpu(() => pids, root);
    group.begin();
    writeStat(root, 1, 150); // +0.5 s
    writeStat(root, 2, 30); // new: 0.3 s
    pids = [1, 2];
    group.sample();
    pids = [2]; // 1 exited after 0.5 s
    writeStat(root, 2, 50);
    expect(group.cpuSeconds()).toBe(1);
  });
});
