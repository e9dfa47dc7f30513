import { formatTable, summaryRows } from './summary-table.js';

const usage = { 'ocpp-gateway': { cpuPercent: 36.1, cpuSeconds: 2, maxRssMiB: 248.5 } };

describe('the summary table', () => {
  it('gives the rows the bench prints: a phase’s figures, then CPU per process (per command for commands)', () => {
    const latency = { count: 4, p50: 4, p95: 8, p99: 12, max: 13 };
    const rows = summaryRows([
      {
        phase: 'commands',
        result: {
          steps: [
            {
              targetPerSecond: 100,
              createdPerSecond: 100,
              endToEndPerSecond: 99,
              terminal: 1000,
              byStatus: { accepted: 1000 },
              refused: 0,
              refusedBy: {},
              skipped: 0,
              postMs: latency,
              postToReceivedMs: latency,
              postToTerminalMs: latency,
              loadGeneratorDelayMs: latency,
              held: false,
              shortfalls: ['2 POSTs refused'],
              workPerCommand: {
                natsMessagesIn: 15.5,
                natsMessagesOut: 18.4,
                writeTransactions: 0.7,
                walBytes: 5600,
              },
            },
          ],
          highestRateHeld: null,
        },
        usage,
      },
    ]);
    expect(rows[0]).toEqual(['phase', 'figure', 'value']);
    expect(rows).toContainEqual(['commands @100/s', 'POST → received p50/p95/p99', '4/8/12 ms']);
    expect(rows).toContainEqual([
      'commands @100/s',
      'held (p99 POST → received < 1000 ms, nothing lost)',
      'no: 2 POSTs refused',
    ]);
    expect(rows).toContainEqual(['commands', 'highest rate held', 'none']);
    expect(rows).toContainEqual([
      'commands @100/s',
      'work per command: NATS messages in/out, write transactions, WAL',
      '15.5/18.4, 0.7, 5600 B',
    ]);
    expect(rows.at(-1)).toEqual([
      'commands',
      'ocpp-gateway CPU / max RSS',
      '36.1% / 248.5 MiB, 2 ms CPU per command',
    ]);
  });

  it("gives each phase's work counted by the servers, and a commands phase's per command", () => {
    const done = {
      natsMessagesIn: 15_610,
      natsMessagesOut: 18_620,
      writeTransactions: 3_010,
      walBytes: 13_107_200,
    };
    const rows = summaryRows([
      {
        phase: 'commands',
        result: { steps: [] },
        usage: {},
        work: {
          done,
          perCommand: {
            natsMessagesIn: 15.61,
            natsMessagesOut: 18.62,
            writeTransactions: 3.01,
            walBytes: 13_107.2,
          },
        },
      },
      { phase: 'another', result: {}, usage: {}, work: { done: { ...done, natsMessagesIn: null } } },
    ]);
    expect(rows).toContainEqual([
      'commands',
      'work: NATS messages in/out, write transactions, WAL',
      '15610/18620, 3010, 12.5 MiB',
    ]);
    expect(rows).toContainEqual([
      'commands',
      'work per command: NATS messages in/out, write transactions, WAL',
      '15.61/18.62, 3.01, 13107.2 B',
    ]);
    expect(rows).toContainEqual([
      'another',
      'work: NATS messages in/out, write transactions, WAL',
      '–/18620, 3010, 12.5 MiB',
    ]);
    expect(rows.filter(([phase]) => phase === 'another')).toHaveLength(1);
  });

  it('shows the numbers and latency summaries of a phase it has no rows of its own for', () => {
    const rows = summaryRows([
      {
        phase: 'a-new-phase',
        result: {
          attempted: 200,
          cappedBy: 'a limit',
          bootRoundTripMs: { p50: 1, p95: 2, p99: 3 },
          timeline: [],
        },
        usage: {},
      },
    ]);
    expect(rows.slice(1)).toEqual([
      ['a-new-phase', 'attempted', '200'],
      ['a-new-phase', 'cappedBy', 'a limit'],
      ['a-new-phase', 'bootRoundTripMs p50/p95/p99', '1/2/3 ms'],
    ]);
  });

  it('lines the columns up', () => {
    expect(
      formatTable([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toBe('a    bb\nccc  d ');
  });
});
