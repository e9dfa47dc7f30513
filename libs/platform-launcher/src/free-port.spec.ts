import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

import { findFreePort } from './free-port.js';

function ephemeralLow(): number {
  return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
}

describe('findFreePort', () => {
  it('hands out distinct ports below the ephemeral range, so outgoing connections cannot take them', async () => {
    const ports = [];
    for (let i = 0; i < 50; i += 1) ports.push(await findFreePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralLow());
    }
  });

  it('skips a port that something already listens on', async () => {
    const taken = await findFreePort();
    const blocker = createServer().listen(taken, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    try {
      for (let i = 0; i < 200; i += 1) expect(await findFreePort()).not.toBe(taken);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('gives each jest worker its own block of ports', async () => {
    const port = await findFreePort();
    const worker = Number(process.env.JEST_WORKER_ID);
    const block = Math.floor((port - 10_000) / 1_000);
    const blocks = Math.floor((ephemeralLow() - 10_000) / 1_000);
    expect(block).toBe(worker % blocks);
  });
});
