import {
  buildFaultReport,
  type CreatedCommand,
  type FinalState,
  formatFaultReport,
  type ReceivedCall,
  recoveryTimes,
  type ReportInput,
} from './fault-report.js';

const CP_A = 'controller-a';
const CP_B = 'controller-b';

function created(nonce: number, controllerUuid = CP_A, firstAttemptAt = nonce * 1000): CreatedCommand {
  return {
    nonce,
    commandUuid: `cmd-${nonce}`,
    type: 'remote_start',
    controllerUuid,
    firstAttemptAt,
    attempts: 1,
  };
}

function received(
  nonce: number,
  controllerUuid = CP_A,
  expected: 'accepted' | 'rejected' = 'accepted',
): ReceivedCall {
  return {
    nonce,
    controllerUuid,
    identity: controllerUuid,
    action: 'RemoteStartTransaction',
    messageId: `m-${nonce}-${Math.random()}`,
    at: nonce * 1000 + 10,
    expected,
  };
}

function terminal(status: FinalState['status'], terminalAt = 0, resultError?: string): FinalState {
  return { status, terminal: true, terminalAt, resultError };
}

function input(overrides: Partial<ReportInput>): ReportInput {
  return {
    parameters: {},
    startedAt: 0,
    finishedAt: 60_000,
    posted: 0,
    created: [],
    postsNotCreated: [],
    finalStates: new Map(),
    statusProblems: [],
    received: [],
    faults: [],
    chargePoints: [CP_A],
    unannouncedCommands: [],
    unexpectedExits: [],
    ...overrides,
  };
}

describe('buildFaultReport', () => {
  it('passes a run where every command ended once, delivered at most once, as the charge point answered', () => {
    const report = buildFaultReport(
      input({
        posted: 3,
        created: [created(1), created(2), created(3)],
        received: [received(1), received(2, CP_A, 'rejected')],
        finalStates: new Map([
          ['cmd-1', terminal('accepted')],
          ['cmd-2', terminal('rejected')],
          ['cmd-3', terminal('failed', 0, 'charge_point_offline')],
        ]),
      }),
    );
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.counts).toMatchObject({ posted: 3, created: 3, terminal: 3, lost: 0, deliveredTwice: 0 });
    expect(report.perStatus).toMatchObject({
      pending: 0,
      sent: 0,
      accepted: 1,
      rejected: 1,
      failed: 1,
      timeout: 0,
    });
    expect(report.perResultError).toEqual({ charge_point_offline: 1 });
  });

  it('counts as lost every created command without a terminal status, seen or not', () => {
    const report = buildFaultReport(
      input({
        created: [created(1), created(2), created(3)],
        received: [received(1)],
        finalStates: new Map<string, FinalState>([
          ['cmd-1', terminal('accepted')],
          ['cmd-2', { status: 'sent', terminal: false }],
        ]),
      }),
    );
    expect(report.counts.lost).toBe(2);
    expect(report.samples.lost.map((lost) => [lost.nonce, lost.lastStatus])).toEqual([
      [2, 'sent'],
      [3, undefined],
    ]);
    expect(report.perStatus).toMatchObject({ sent: 1, never_seen: 1 });
    expect(report.passed).toBe(false);
  });

  it('finds a nonce delivered twice, on one charge point or on two, and calls that went to the wrong one', () => {
    const report = buildFaultReport(
      input({
        chargePoints: [CP_A, CP_B],
        created: [created(1), created(2), created(3)],
        received: [received(1), received(1), received(2), received(2, CP_B), received(3)],
        finalStates: new Map([1, 2, 3].map((n) => [`cmd-${n}`, terminal('accepted')])),
      }),
    );
    expect(report.counts.deliveredTwice).toBe(2);
    expect(
      report.samples.deliveredTwice.map((duplicate) => [duplicate.nonce, duplicate.calls.length]),
    ).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(report.counts.receivedByWrongChargePoint).toBe(1);
    expect(report.passed).toBe(false);
  });

  it('flags outcomes that contradict the charge point: other status, answered unreceived, offline yet delivered', () => {
    const report = buildFaultReport(
      input({
        created: [created(1), created(2), created(3)],
        received: [received(1, CP_A, 'rejected'), received(3)],
        finalStates: new Map([
          ['cmd-1', terminal('accepted')],
          ['cmd-2', terminal('accepted')],
          ['cmd-3', terminal('failed', 0, 'charge_point_offline')],
        ]),
      }),
    );
    expect(report.counts).toMatchObject({
      wrongOutcome: 1,
      answeredButNotReceived: 1,
      offlineButDelivered: 1,
    });
    expect(report.failures).toHaveLength(3);
  });

  it('lets timeouts and lost connections of received calls pass, and reports calls no 202 announced', () => {
    const report = buildFaultReport(
      input({
        posted: 3,
        created: [created(1), created(2)],
        received: [received(1), received(2), received(3)],
        finalStates: new Map([
          ['cmd-1', terminal('timeout')],
          ['cmd-2', terminal('failed', 0, 'connection_lost')],
        ]),
      }),
    );
    expect(report.counts.receivedWithoutCreation).toBe(1);
    expect(report.passed).toBe(true);
  });

  it('fails when a process exited on its own', () => {
    const report = buildFaultReport(
      input({
        posted: 1,
        created: [created(1)],
        received: [received(1)],
        finalStates: new Map([['cmd-1', terminal('accepted')]]),
        unexpectedExits: [{ name: 'command-service-b', at: 0, how: 'exited with code 1' }],
      }),
    );
    expect(report.failures).toEqual([
      '1 processes exited on their own (a crash; see their logs in the work directory)',
    ]);
  });

  it('fails on refused POSTs, unexplained commands and status problems, and when nothing was created', () => {
    expect(buildFaultReport(input({})).failures).toEqual(['no command was created at all']);
    const report = buildFaultReport(
      input({
        posted: 2,
        created: [created(1)],
        received: [received(1)],
        finalStates: new Map([['cmd-1', terminal('accepted')]]),
        postsNotCreated: [{ nonce: 2, gaveUp: false, reason: '422' }],
        unannouncedCommands: ['cmd-x'],
        statusProblems: [{ commandUuid: 'cmd-1', kind: 'went_backwards', detail: 'sent → pending', at: 1 }],
      }),
    );
    expect(report.failures).toHaveLength(3);
  });

  it('lets a few POSTs give up during outages, with as many commands no 202 announced, but not many', () => {
    const base = {
      created: Array.from({ length: 19 }, (_, index) => created(index + 1)),
      received: Array.from({ length: 19 }, (_, index) => received(index + 1)),
      finalStates: new Map(
        Array.from({ length: 19 }, (_, index) => [`cmd-${index + 1}`, terminal('accepted')]),
      ),
    };
    const fine = buildFaultReport(
      input({
        ...base,
        posted: 20,
        postsNotCreated: [{ nonce: 20, gaveUp: true, reason: '503 ×30' }],
        unannouncedCommands: ['cmd-20'],
      }),
    );
    expect(fine.failures).toEqual([]);
    expect(fine.counts).toMatchObject({ postsGivenUp: 1, postsRefused: 0, unannouncedCommands: 1 });

    const tooMany = buildFaultReport(
      input({
        ...base,
        posted: 22,
        postsNotCreated: [20, 21, 22].map((nonce) => ({ nonce, gaveUp: true, reason: '503 ×30' })),
        unannouncedCommands: ['cmd-20', 'cmd-21', 'cmd-22', 'cmd-23'],
      }),
    );
    expect(tooMany.failures).toEqual([
      '3 POSTs met only outages until their retry window closed',
      '4 commands exist that no 202 announced, more than the 3 POSTs given up',
    ]);
  });

  it('formats the counts, the recovery times and the failures', () => {
    const lines = formatFaultReport(
      buildFaultReport(
        input({
          created: [created(1), created(2)],
          received: [received(1)],
          finalStates: new Map([['cmd-1', terminal('accepted', 4500)]]),
          faults: [{ name: 'api-gateway', killedAt: 500, restartedAt: 2500, readyAt: 3500 }],
        }),
      ),
    ).join('\n');
    expect(lines).toContain('fault test FAILED');
    expect(lines).toContain('created 2 (of 0 posted)   terminal 1   lost 1   delivered-twice 0');
    expect(lines).toMatch(/api-gateway\s+3\.0 s\s+4\.0 s\s+1\.0 s/);
    expect(lines).toContain('FAILURE: 1 commands never reached a terminal state');
  });
});

describe('recoveryTimes', () => {
  const fault = { name: 'nats', killedAt: 10_000, restartedAt: 12_000, readyAt: 13_000 };

  it('waits for the slowest charge point to complete a command posted after the kill', () => {
    const commands = [
      created(1, CP_A, 9_000),
      created(2, CP_A, 11_000),
      created(3, CP_B, 11_500),
      created(4, CP_A, 12_000),
    ];
    const states = new Map([
      ['cmd-1', terminal('accepted', 10_500)],
      ['cmd-2', terminal('rejected', 14_000)],
      ['cmd-3', terminal('accepted', 16_000)],
      ['cmd-4', terminal('accepted', 13_500)],
    ]);
    expect(recoveryTimes([fault], commands, states, [CP_A, CP_B])).toEqual([
      { fault: 'nats', readyAfterMs: 3000, recoveredAfterMs: 6000, recoveredAfterReadyMs: 3000 },
    ]);
  });

  it('says never when a charge point completed nothing posted after the kill (failures do not count)', () => {
    const commands = [created(1, CP_A, 11_000), created(2, CP_B, 11_000)];
    const states = new Map([
      ['cmd-1', terminal('accepted', 12_000)],
      ['cmd-2', terminal('failed', 12_000, 'connection_lost')],
    ]);
    expect(recoveryTimes([fault], commands, states, [CP_A, CP_B])[0]).toMatchObject({
      recoveredAfterMs: null,
      recoveredAfterReadyMs: null,
    });
  });

  it('counts a recovery before the process was ready again as 0 s after it', () => {
    const commands = [created(1, CP_A, 10_500), created(2, CP_B, 10_500)];
    const states = new Map([
      ['cmd-1', terminal('accepted', 11_000)],
      ['cmd-2', terminal('accepted', 12_500)],
    ]);
    expect(recoveryTimes([fault], commands, states, [CP_A, CP_B])).toEqual([
      { fault: 'nats', readyAfterMs: 3000, recoveredAfterMs: 2500, recoveredAfterReadyMs: 0 },
    ]);
  });
});
