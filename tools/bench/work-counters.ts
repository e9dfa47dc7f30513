import pg from 'pg';

/**
 * What the servers did, counted by the servers themselves: messages through nats-server and PostgreSQL's write
 * transactions and WAL. Unlike CPU time and latencies these do not move with the machine's speed or its other load, so
 * a change that saves hops shows in them on any machine, run after run.
 */
export interface WorkCounters {
  /** Messages nats-server took in from its clients, and sent out to them (JetStream acknowledgements included). */
  natsMessagesIn: number | null;
  natsMessagesOut: number | null;
  /** Transactions that were given a transaction id: those that wrote (read-only ones get none). */
  writeTransactions: number;
  /** Bytes of write-ahead log written. */
  walBytes: number;
}

/** One reading, as the servers answer it: cumulative figures since they started. */
export interface WorkReading {
  /** `in_msgs` and `out_msgs` of nats-server's `/varz`, when its monitoring port is known. */
  nats: { in_msgs: number; out_msgs: number } | null;
  /** The transaction id the reading itself was given (each reading takes one), and the WAL position in bytes. */
  transactionId: number;
  walBytes: number;
}

/**
 * The work between two readings. The later reading's own transaction id is not the work's: the ids between the two
 * readings' are.
 */
export function workBetween(before: WorkReading, after: WorkReading): WorkCounters {
  return {
    natsMessagesIn: before.nats && after.nats ? after.nats.in_msgs - before.nats.in_msgs : null,
    natsMessagesOut: before.nats && after.nats ? after.nats.out_msgs - before.nats.out_msgs : null,
    writeTransactions: Math.max(0, after.transactionId - before.transactionId - 1),
    walBytes: after.walBytes - before.walBytes,
  };
}

/** The work of a commands phase's steps (each step's `work`), added up. */
export function sumWork(result: unknown): WorkCounters {
  const steps = (result as { steps: { work: WorkCounters }[] }).steps;
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  return steps.reduce<WorkCounters>(
    (sum, { work }) => ({
      natsMessagesIn: add(sum.natsMessagesIn, work.natsMessagesIn),
      natsMessagesOut: add(sum.natsMessagesOut, work.natsMessagesOut),
      writeTransactions: sum.writeTransactions + work.writeTransactions,
      walBytes: sum.walBytes + work.walBytes,
    }),
    { natsMessagesIn: 0, natsMessagesOut: 0, writeTransactions: 0, walBytes: 0 },
  );
}

/** The work divided by `units` (commands, say), two decimals; empty when there were none. */
export function workPer(work: WorkCounters, units: number): Record<string, number> {
  if (units <= 0) return {};
  return Object.fromEntries(
    Object.entries(work)
      .filter((entry): entry is [string, number] => entry[1] !== null)
      .map(([name, value]) => [name, Math.round((value / units) * 100) / 100]),
  );
}

/** Reads the counters of the bench's PostgreSQL server and, when its monitoring address is known, nats-server. */
export class WorkCounterReader {
  private readonly client: pg.Client;
  private connected: Promise<unknown> | undefined;

  constructor(
    databaseUrl: string,
    private readonly natsMonitorUrl: string | undefined,
  ) {
    this.client = new pg.Client({ connectionString: databaseUrl });
  }

  async read(): Promise<WorkReading> {
    this.connected ??= this.client.connect();
    await this.connected;
    const [nats, database] = await Promise.all([
      this.natsMonitorUrl ? this.readNats(this.natsMonitorUrl) : Promise.resolve(null),
      this.client.query<{ transaction_id: string; wal_bytes: string }>(
        `SELECT pg_current_xact_id()::text AS transaction_id, (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS wal_bytes`,
      ),
    ]);
    const [row] = database.rows;
    return { nats, transactionId: Number(row.transaction_id), walBytes: Number(row.wal_bytes) };
  }

  async close(): Promise<void> {
    if (this.connected) await this.client.end();
  }

  private async readNats(monitorUrl: string): Promise<WorkReading['nats']> {
    const response = await fetch(new URL('/varz', monitorUrl));
    if (!response.ok) throw new Error(`GET /varz of nats-server answered ${response.status}`);
    const { in_msgs: inMessages, out_msgs: outMessages } = (await response.json()) as {
      in_msgs: number;
      out_msgs: number;
    };
    return { in_msgs: inMessages, out_msgs: outMessages };
  }
}
