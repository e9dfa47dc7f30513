import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { niceCeiling, type Point } from './api/meter-values';

/**
 * A line chart in plain SVG (no chart library: a few hundred bytes instead of tens of kilobytes): the line over time,
 * four value lines with their labels, the first and last time. Screen readers get one sentence with the numbers that
 * matter (samples, time span, lowest, highest, last) as the image's name.
 */
const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 64;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;
const TEXT = 'var(--mantine-color-gray-7)';
const GRID = 'var(--mantine-color-gray-3)';
const LINE = 'var(--mantine-primary-color-filled)';

const time = (t: number) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function LineChart({
  title,
  points,
  format,
  empty,
}: {
  title: string;
  points: readonly Point[];
  /** A value with its unit (`7.4 kW`). */
  format: (value: number) => string;
  /** Said instead of the chart when there are no points. */
  empty: string;
}) {
  if (points.length === 0) {
    return (
      <ChartFrame title={title}>
        <Text size="sm">{empty}</Text>
      </ChartFrame>
    );
  }
  const values = points.map((point) => point.v);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const top = niceCeiling(high);
  const bottom = low < 0 ? -niceCeiling(-low) : 0;
  const first = points[0].t;
  const last = points[points.length - 1].t;
  const span = Math.max(last - first, 1);
  const x = (t: number) => LEFT + ((t - first) / span) * (WIDTH - LEFT - RIGHT);
  const y = (v: number) => TOP + (1 - (v - bottom) / (top - bottom)) * (HEIGHT - TOP - BOTTOM);
  const path = points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(point.t).toFixed(1)},${y(point.v).toFixed(1)}`)
    .join('');
  const ticks = [0, 1, 2, 3, 4].map((index) => bottom + ((top - bottom) * index) / 4);
  const summary =
    `${title}: ${points.length} samples from ${time(first)} to ${time(last)}; ` +
    `lowest ${format(low)}, highest ${format(high)}, last ${format(values[values.length - 1])}.`;

  return (
    <ChartFrame title={title}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={summary}
        style={{ maxHeight: 260, display: 'block' }}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeWidth={1} />
            <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill={TEXT}>
              {format(tick)}
            </text>
          </g>
        ))}
        <text x={LEFT} y={HEIGHT - 8} fontSize={11} fill={TEXT}>
          {time(first)}
        </text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 8} textAnchor="end" fontSize={11} fill={TEXT}>
          {time(last)}
        </text>
        <path d={path} fill="none" stroke={LINE} strokeWidth={2} strokeLinejoin="round" />
        {points.length <= 60 &&
          points.map((point) => <circle key={point.t} cx={x(point.t)} cy={y(point.v)} r={2.5} fill={LINE} />)}
      </svg>
    </ChartFrame>
  );
}

function ChartFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
