import { type ChildProcess, spawn } from 'node:child_process';
import { HeapAfterGc } from './heap-after-gc.js';

/** A Node process started as the bench starts the services (inspector on SIGUSR1, free port), its stderr kept. */
async function startNode(script: string): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, ['--inspect-port=0', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { child, lines };
}

// 40,000 objects of two numbers and a string: several MiB, retained or left as garbage.
const ALLOCATE = 'Array.from({ length: 40000 }, (_, i) => ({ i, j: i * 2, s: "x" + i }))';

describe('HeapAfterGc', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((child) => child.kill()));

  async function heapOf(script: string): Promise<number> {
    const { child, lines } = await startNode(`${script}; setInterval(() => {}, 1000); console.log('ready')`);
    children.push(child);
    const heap = await HeapAfterGc.open(child.pid!, () => lines);
    try {
      return await heap.usedBytes();
    } finally {
      heap.close();
    }
  }

  it('counts what a process retains and leaves out its garbage', async () => {
    const retained = await heapOf(`globalThis.kept = ${ALLOCATE}`);
    // The same objects, unreachable once made: a plain reading would still count them until a major collection.
    const garbage = await heapOf(`${ALLOCATE}.length`);
    expect(retained - garbage).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('fails when the process opens no inspector it says where', async () => {
    const { child } = await startNode(
      "process.on('SIGUSR1', () => {}); setInterval(() => {}, 1000); console.log('ready')",
    );
    children.push(child);
    await expect(HeapAfterGc.open(child.pid!, () => [], 300)).rejects.toThrow(/opened no inspector/);
  });
});
