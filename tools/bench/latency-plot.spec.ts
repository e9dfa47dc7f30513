import {
  commandLatencySeries,
  commandLatencySvg,
  lineChartSvg,
  plotPathFor,
  type PlottedStep,
} from './latency-plot.js';

const summary = (p50: number | null, p99: number | null) => ({ count: 1, p50, p95: null, p99, max: p99 });
const step = (rate: number, postP99: number | null, receivedP50: number | null, receivedP99: number | null) =>
  ({
    targetPerSecond: rate,
    postMs: summary(null, postP99),
    postToReceivedMs: summary(receivedP50, receivedP99),
  }) satisfies PlottedStep;

describe('the latency plot', () => {
  it('takes p99 and p50 of POST → received and the POST p99 from each step, in step order', () => {
    const series = commandLatencySeries([step(100, 10, 4, 12), step(500, 40, 7, 43)]);
    expect(series.map((line) => line.label)).toEqual([
      'POST → received p99',
      'POST p99',
      'POST → received p50',
    ]);
    expect(series[0].points).toEqual([
      { x: 100, y: 12 },
      { x: 500, y: 43 },
    ]);
    expect(series[2].points.map((point) => point.y)).toEqual([4, 7]);
  });

  it('draws one polyline per series through its points, left to right, and leaves out missing values', () => {
    const svg = commandLatencySvg(
      [step(100, 10, 4, 12), step(500, 40, 7, 43), step(1000, null, null, null)],
      '2 cores',
    );
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const polylines = [...svg.matchAll(/<polyline points="([^"]+)"/g)].map((match) => match[1].split(' '));
    expect(polylines).toHaveLength(3);
    for (const points of polylines) {
      expect(points).toHaveLength(2);
      const [first, second] = points.map((point) => point.split(',').map(Number));
      expect(second[0]).toBeGreaterThan(first[0]);
    }
    // The higher latency is drawn higher (a smaller y).
    const p99 = polylines[0].map((point) => Number(point.split(',')[1]));
    expect(p99[1]).toBeLessThan(p99[0]);
    expect(svg).toContain('(2 cores)');
    expect(svg).toContain('stroke-dasharray');
    expect(svg).toContain('target: p99 POST → received &lt; 50 ms at 500/s');
  });

  it('marks a lone point without a line, and escapes text', () => {
    const svg = lineChartSvg({
      title: 'a < b & c',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ label: '"p99"', color: '#000000', points: [{ x: 500, y: 42.9 }] }],
    });
    expect(svg).not.toContain('<polyline');
    expect(svg.match(/<circle /g)).toHaveLength(1);
    expect(svg).toContain('a &lt; b &amp; c');
    expect(svg).toContain('&quot;p99&quot;');
  });

  it('is written beside the results file', () => {
    expect(plotPathFor('bench-results/bench-1.json')).toBe('bench-results/bench-1-latency.svg');
  });
});
