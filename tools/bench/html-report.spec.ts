import {
  cpuBarsSvg,
  htmlReport,
  htmlReportPathFor,
  type ReportedPhase,
  stormOnlineSvg,
  stormTimeline,
} from './html-report.js';

const summary = (p50: number | null, p95: number | null, p99: number | null) => ({
  count: 10,
  p50,
  p95,
  p99,
  max: p99,
});
const usage = {
  'ocpp-gateway': { cpuPercent: 36.1, cpuSeconds: 7.66, maxRssMiB: 248.5 },
  'nats-server': { cpuPercent: 4.7, cpuSeconds: 0.99, maxRssMiB: null },
  'machine (all processes)': { cpuPercent: 147.1, cpuSeconds: 30.87, maxRssMiB: null },
};
const commandStep = (rate: number, p99: number | null) => ({
  targetPerSecond: rate,
  seconds: 10,
  created: rate * 10,
  refused: 0,
  refusedBy: {},
  skipped: 0,
  terminal: rate * 10,
  byStatus: { accepted: rate * 10 },
  createdPerSecond: rate,
  endToEndPerSecond: rate - 1,
  postMs: summary(2, 5, 9),
  postToReceivedMs: summary(4, 8, p99),
  postToTerminalMs: summary(6, 12, 20),
  loadGeneratorDelayMs: summary(1, 2, 3),
});
const commands: ReportedPhase = {
  phase: 'commands',
  result: { chargePoints: 100, steps: [commandStep(100, 12), commandStep(500, 43)] },
  usage,
  cpuMsPerCommand: { 'ocpp-gateway': 0.42 },
};
const authorize: ReportedPhase = {
  phase: 'authorize',
  result: {
    targetPerSecond: 2000,
    answeredPerSecond: 2027,
    failed: 0,
    skipped: 0,
    byStatus: { Accepted: 10 },
    roundTripMs: summary(4.04, 336.19, 667.63),
  },
  usage,
};
const telemetryStep = (multiplier: number) => ({
  multiplier,
  seconds: 60,
  offeredPerSecond: {
    heartbeats: 66,
    meterValues: 400,
    statusNotifications: 7,
    messages: 473 * multiplier,
    samples: 1600,
  },
  sent: { heartbeat: 1, status: 1, meter: 1 },
  answered: { heartbeat: 1, status: 1, meter: 1 },
  errors: {},
  unanswered: 0,
  acknowledgedPerSecond: 470 * multiplier,
  roundTripMs: summary(68, 313, 424),
  meterRoundTripMs: summary(89, 327, 443),
  samples: { acknowledged: 10, stored: 10, storedPerSecond: 1, waitedSeconds: 0 },
  statusChanges: { acknowledged: 1, logged: 1 },
  receiptToStoredMs: { ...summary(51, 231, 310), unmatched: 0 },
  sentToStoredMs: summary(65, 246, 325),
  usage,
  cpuMsPerMessage: { 'ocpp-gateway': 0.568 },
});
const telemetry: ReportedPhase = {
  phase: 'telemetry',
  result: {
    requested: 10,
    attempted: 10,
    connected: 10,
    ready: 10,
    charging: 10,
    failed: 0,
    setUpSeconds: 1,
    plan: {},
    steps: [telemetryStep(1), telemetryStep(5)],
  },
  usage,
};
const storm: ReportedPhase = {
  phase: 'reconnect-storm',
  result: {
    requested: 200,
    attempted: 200,
    connectors: 2,
    initiallyReady: 200,
    setUpSeconds: 3,
    gatewayRestartSeconds: 2.1,
    allAcceptedSeconds: 1.5,
    allOnlineSeconds: 1.5,
    allAcceptedAndOnlineSeconds: 1.5,
    accepted: 200,
    online: 200,
    onlineInApi: 200,
    bootRoundTripMs: summary(5, 9, 12),
    connectMs: summary(5, 9, 12),
    acceptedMs: summary(5, 9, 12),
    bootStatuses: { Accepted: 200 },
    refused: 0,
    refusedBy: {},
    connectErrors: {},
    callErrors: {},
    attempts: 200,
    dropped: 0,
    commands: {
      created: 4,
      delivered: 4,
      missing: 0,
      repeated: 0,
      outOfOrder: [],
      chargePoints: 2,
      refusedBy: {},
      byStatus: {},
    },
    timeline: [
      { seconds: 0.25, accepted: 20, online: 10 },
      { seconds: 0.5, accepted: 150, online: 120 },
      { seconds: 1.5, accepted: 200, online: 200 },
    ],
  },
  usage,
};
const webhooks: ReportedPhase = {
  phase: 'webhooks',
  result: {
    statusEventsPerSecond: 988,
    deliveriesPerSecond: 1003,
    statusEvents: 20040,
    delivered: 20040,
    lost: 0,
    repeated: 0,
    differentIds: 0,
    eventToReceiverMs: summary(145, 693, 812),
    warmUpSeconds: 5,
    eventToReceiverMsAfterWarmUp: summary(120, 180, 240),
    eventToNatsMs: summary(26, 88, 161),
    eventToReceiverMsBySecond: [summary(300, 700, 846), summary(100, 150, 224), summary(90, 140, 193)],
    eventToNatsMsBySecond: [summary(40, 120, 168), summary(20, 40, 52)],
    eventToReceiverMsByStatus: { pending: summary(117, 500, 803) },
    timedOutReceiverRequests: 159,
  },
  usage,
};
const results = (...reports: ReportedPhase[]) => ({
  at: '2026-11-26T08:00:00.000Z',
  machine: { cpus: 2, cpuModel: 'AMD EPYC', memoryGiB: 24, node: 'v20.20.2', startedPlatform: true },
  options: { phases: reports.map((report) => report.phase) },
  reports,
});

/** Every number in an SVG coordinate or size attribute, and in a polyline's points. */
function coordinates(html: string): string[] {
  const attributes = [...html.matchAll(/ (?:x|y|x1|y1|x2|y2|cx|cy|width|height)="([^"]*)"/g)].map(
    (match) => match[1],
  );
  const points = [...html.matchAll(/ points="([^"]*)"/g)].flatMap((match) => match[1].split(/[ ,]/));
  return [...attributes, ...points];
}

const titles = (html: string) =>
  [...html.matchAll(/font-size="15">([^<]*)<\/text>/g)].map((match) => match[1]);

describe('the HTML report', () => {
  it('is one self-contained page: inline SVG, no scripts, no assets from elsewhere', () => {
    const html = htmlReport(results(commands, authorize, telemetry, storm));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(/);
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(html).toContain('2 cores, AMD EPYC, 24 GiB, Node v20.20.2');
  });

  it('draws every phase’s plots when their data is there', () => {
    const html = htmlReport(results(commands, authorize, telemetry, storm, webhooks));
    expect(titles(html)).toEqual([
      'Command latency over offered load',
      'Commands per second over offered load',
      'commands: CPU per process',
      'authorize: CPU per process',
      'Telemetry: messages acknowledged over offered',
      'Telemetry: lags over offered load',
      'Telemetry ×1: CPU per process',
      'Telemetry ×5: CPU per process',
      'telemetry: CPU per process',
      'Reconnect storm: charge points online',
      'reconnect-storm: CPU per process',
      'Webhook latency over the run',
      'webhooks: CPU per process',
    ]);
    expect(html).toContain(
      '<td>after the first 5 s</td><td></td><td>120 ms</td><td>180 ms</td><td>240 ms</td>',
    );
    expect(html).toContain('<td>webhooks @988 status changes/s</td><td>the same after the first 5 s</td>');
    expect(html).toContain('0.42 ms per command');
    expect(html).toContain('0.568 ms per message');
    // The authorize figures as a table; the summary table as the bench prints it.
    expect(html).toContain('<td>2000 Authorize/s</td><td>2027/s</td><td>4.04 ms</td><td>336.19 ms</td>');
    expect(html).toContain('<td>commands @500/s</td><td>POST → received p50/p95/p99</td><td>4/8/43 ms</td>');
    expect(html).toContain(
      '<td>reconnect-storm</td><td>after the reconnect order: all accepted, all online, both</td>',
    );
  });

  it('leaves a plot out when its data is not there', () => {
    const noUsage = { ...commands, usage: {}, result: { steps: [commandStep(100, null)] } };
    const stormWithoutTimeline = { ...storm, usage: {}, result: { attempted: 200 } };
    const html = htmlReport(results(authorize, noUsage, stormWithoutTimeline));
    expect(titles(html)).toEqual([
      'authorize: CPU per process',
      // The step's POST → received p99 is missing; its other figures are still drawn.
      'Command latency over offered load',
      'Commands per second over offered load',
    ]);
    const empty = htmlReport(results({ ...commands, usage: {}, result: { steps: [] } }));
    expect(empty).not.toContain('<svg');
  });

  it('escapes the text it shows', () => {
    const html = htmlReport({
      ...results({ ...authorize, phase: '<script>alert("x")</script>' }),
      at: '<b>&',
      options: { note: '</pre><script>' },
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Bench results &lt;b&gt;&amp;');
  });

  it('puts no NaN or infinity into SVG coordinates, whatever the file holds', () => {
    const spoiled: ReportedPhase[] = [
      {
        phase: 'commands',
        result: { steps: [commandStep(100, Number.NaN), { targetPerSecond: 'x' }, commandStep(0, 0)] },
        usage: {
          a: { cpuPercent: Number.POSITIVE_INFINITY, maxRssMiB: null },
          b: { cpuPercent: 0, maxRssMiB: null },
        },
      },
      {
        phase: 'telemetry',
        result: {
          steps: [{ multiplier: 1, offeredPerSecond: {}, receiptToStoredMs: { unavailable: 'no' } }],
        },
        usage: {},
      },
      {
        phase: 'reconnect-storm',
        result: { timeline: [{ seconds: 0, online: 0 }, { seconds: null }] },
        usage: {},
      },
    ];
    const html = htmlReport(results(...spoiled));
    const numbers = coordinates(html);
    expect(numbers.length).toBeGreaterThan(0);
    for (const value of numbers) expect(Number.isFinite(Number(value))).toBe(true);
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  it('says so when a phase cannot be drawn, and draws the rest', () => {
    const html = htmlReport(results({ phase: 'commands', result: null, usage }, authorize));
    expect(html).toContain('authorize: CPU per process');
    expect(html).toContain('class="error"');
  });

  it('is written beside the results file', () => {
    expect(htmlReportPathFor('bench-results/bench-1.json')).toBe('bench-results/bench-1.html');
  });
});

describe('the reconnect storm plot', () => {
  it('reads the readings of `timeline` (or `onlineOverTime`), in seconds or milliseconds', () => {
    expect(stormTimeline(storm.result)).toEqual([
      { seconds: 0.25, accepted: 20, online: 10 },
      { seconds: 0.5, accepted: 150, online: 120 },
      { seconds: 1.5, accepted: 200, online: 200 },
    ]);
    expect(stormTimeline({ onlineOverTime: [{ atMs: 1500, online: 3 }, { online: 4 }] })).toEqual([
      { seconds: 1.5, online: 3 },
    ]);
    expect(stormTimeline({ timeline: 'soon' })).toBeUndefined();
    expect(stormTimeline(undefined)).toBeUndefined();
  });

  it('draws the online count as a line rising to the fleet, without a marker per reading', () => {
    const svg = stormOnlineSvg(
      [
        { seconds: 0, online: 0 },
        { seconds: 10, online: 100 },
        { seconds: 20, online: 200 },
      ],
      200,
    );
    const line = [...svg.matchAll(/<polyline points="([^"]+)"/g)].map((match) =>
      match[1].split(' ').map((point) => point.split(',').map(Number)),
    );
    expect(line).toHaveLength(1);
    expect(line[0]).toHaveLength(3);
    // Later to the right, more online higher up (a smaller y).
    expect(line[0][2][0]).toBeGreaterThan(line[0][0][0]);
    expect(line[0][2][1]).toBeLessThan(line[0][0][1]);
    expect(svg).not.toContain('<circle');
    expect(svg).toContain('all 200 charge points');
    expect(svg).toContain('target: all online within 30 s');
    // The 30 s target stands right of the last reading, at 20 s: the axis reaches it.
    const deadline = Number(
      /<line x1="([^"]+)"[^>]*stroke-dasharray="6 4"\/>\n<text[^>]*>target: all online/.exec(svg)?.[1],
    );
    expect(deadline).toBeGreaterThan(line[0][2][0]);
  });
});

describe('the CPU bars', () => {
  it('draws a bar a process, longer for more CPU, and nothing without figures', () => {
    const svg = cpuBarsSvg('CPU', usage)!;
    const widths = [...svg.matchAll(/<rect x="[^"]+" y="[^"]+" width="([^"]+)"/g)].map((match) =>
      Number(match[1]),
    );
    expect(widths).toHaveLength(3);
    expect(widths[0]).toBeGreaterThan(widths[1]);
    expect(widths[2]).toBeGreaterThan(widths[0]);
    expect(svg).toContain('36.1 %');
    expect(cpuBarsSvg('CPU', {})).toBeUndefined();
    expect(cpuBarsSvg('CPU', undefined)).toBeUndefined();
  });
});
