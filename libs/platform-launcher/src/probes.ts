import { connect } from 'node:net';
import type { ReadinessCheck } from './readiness.js';

interface ProbeOptions {
  host: string;
  port: number;
  /** Bytes sent once connected. */
  send?: Buffer;
  /** Whether what the server sent so far identifies it. */
  recognise: (received: Buffer) => boolean;
  timeoutMs: number;
}

function probe(options: ProbeOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const socket = connect({ host: options.host, port: options.port });
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(options.timeoutMs, () => done(false));
    socket.on('connect', () => {
      if (options.send) socket.write(options.send);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (options.recognise(received)) done(true);
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
}

/** PostgreSQL's SSLRequest: length 8, code 80877103. Any PostgreSQL answers with one byte, 'S' or 'N'. */
const POSTGRES_SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/**
 * Whether a PostgreSQL server answers at the host and port of `url`. Speaks just enough of the protocol to know it is
 * PostgreSQL, without logging in: a server that wants a password or lacks the database still counts as answering.
 */
export function postgresAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const parsed = new URL(url);
  return probe({
    host: hostOf(parsed),
    port: Number(parsed.port || 5432),
    send: POSTGRES_SSL_REQUEST,
    recognise: (received) => received.length > 0 && (received[0] === 0x53 || received[0] === 0x4e),
    timeoutMs,
  });
}

/** Whether a NATS server answers at `url` (or at any of a comma-separated list): NATS greets with `INFO {...}`. */
export async function natsAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  for (const candidate of url.split(',')) {
    const parsed = new URL(candidate.trim());
    const answers = await probe({
      host: hostOf(parsed),
      port: Number(parsed.port || 4222),
      recognise: (received) => received.toString('latin1').startsWith('INFO '),
      timeoutMs,
    });
    if (answers) return true;
  }
  return false;
}

/** `postgresAnswers`/`natsAnswers` as a readiness check for a server the launcher started itself. */
export function probeReadyCheck(answers: () => Promise<boolean>, what: string): ReadinessCheck {
  return async () =>
    (await answers())
      ? { ready: true, detail: `${what} answers` }
      : { ready: false, detail: `${what} does not answer` };
}
