import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Ports are handed out from below the kernel's ephemeral range: a port picked there by `listen(0)` can be taken in
// the seconds before the child process binds it, by any outgoing connection (to PostgreSQL, NATS) whose source port
// the kernel chooses from that same range. Each jest worker gets its own block, so parallel workers never race
// for a port either; within a process a port is never handed out twice.
const LOWEST_PORT = 10_000;
const BLOCK_SIZE = 1_000;
const handedOut = new Set<number>();

function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const value = Number(low);
    return Number.isInteger(value) && value > LOWEST_PORT + BLOCK_SIZE ? value : 32_768;
  } catch {
    return 32_768;
  }
}

function portBlock(): { first: number; size: number } {
  const blocks = Math.max(1, Math.floor((ephemeralRangeStart() - LOWEST_PORT) / BLOCK_SIZE));
  const worker = Number(process.env.JEST_WORKER_ID ?? 0);
  // Processes that are not jest workers (npm start, the bench, a second clone) start at a block chosen by pid.
  const index = Number.isInteger(worker) && worker > 0 ? worker % blocks : process.pid % blocks;
  return { first: LOWEST_PORT + index * BLOCK_SIZE, size: BLOCK_SIZE };
}

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A free port for servers that cannot be told to pick one themselves (child processes, nats-server, PostgreSQL). */
export async function findFreePort(): Promise<number> {
  const { first, size } = portBlock();
  for (let round = 0; round < 2; round += 1) {
    const start = Math.floor(Math.random() * size);
    for (let step = 0; step < size; step += 1) {
      const port = first + ((start + step) % size);
      if (handedOut.has(port)) continue;
      if (await canListen(port)) {
        handedOut.add(port);
        return port;
      }
    }
    // Every port of the block was handed out once: the earliest servers have long since bound or closed theirs.
    handedOut.clear();
  }
  throw new Error(`no free port in ${first}-${first + size - 1}`);
}
