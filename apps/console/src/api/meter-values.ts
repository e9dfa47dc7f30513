import type { MeterValue } from './types';

/**
 * A charging session's meter values as the series its charts draw: power in W and energy delivered in Wh over time.
 * Values come in W or kW, Wh or kWh (the gateway has applied 2.0.1's multiplier); a measurand reported per phase is
 * summed over the phases, and a value without a phase (the total) wins over the phases of the same moment.
 */
export interface Point {
  /** Milliseconds since the epoch. */
  t: number;
  v: number;
}

export const POWER = 'Power.Active.Import';
export const ENERGY = 'Energy.Active.Import.Register';

/** W or Wh from a value in its unit (k… is a thousand). */
function inBaseUnit(value: MeterValue): number {
  return /^k/i.test(value.unit) ? value.value * 1000 : value.value;
}

const PHASES = /^L[123](-N)?$/;

/** One value per moment of `measurand`: the total if reported, else the sum of its phases (L1, L2, L3). */
export function seriesOf(values: readonly MeterValue[], measurand: string): Point[] {
  const byTime = new Map<number, { total?: number; phases: number }>();
  for (const value of values) {
    if (value.measurand !== measurand) continue;
    const t = Date.parse(value.sampled_at);
    if (!Number.isFinite(t) || !Number.isFinite(value.value)) continue;
    const slot = byTime.get(t) ?? { phases: 0 };
    if (value.phase === null || value.phase === undefined) slot.total ??= inBaseUnit(value);
    else if (PHASES.test(value.phase)) slot.phases += inBaseUnit(value);
    byTime.set(t, slot);
  }
  return [...byTime.entries()]
    .map(([t, slot]) => ({ t, v: slot.total ?? slot.phases }))
    .sort((a, b) => a.t - b.t);
}

/** Energy delivered since the session started: the register minus its value at the start (or its first sample). */
export function energyDelivered(values: readonly MeterValue[], meterStartWh: number | null): Point[] {
  const register = seriesOf(values, ENERGY);
  const start = meterStartWh ?? register[0]?.v ?? 0;
  return register.map((point) => ({ t: point.t, v: point.v - start }));
}

/** Power when the charge point reports none: the energy between two samples over the time between them. */
export function powerFromEnergy(energy: readonly Point[]): Point[] {
  const power: Point[] = [];
  for (let index = 1; index < energy.length; index += 1) {
    const hours = (energy[index].t - energy[index - 1].t) / 3_600_000;
    if (hours > 0) power.push({ t: energy[index].t, v: (energy[index].v - energy[index - 1].v) / hours });
  }
  return power;
}

/** A number of W or Wh in words: `7.4 kW`, `350 W`, `12.50 kWh`. */
export function formatPower(watts: number): string {
  return Math.abs(watts) >= 1000 ? `${(watts / 1000).toFixed(1)} kW` : `${Math.round(watts)} W`;
}

/** A round upper bound for the value axis: 1, 2, 2.5 or 5 times a power of ten, at least the highest value. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
