/**
 * Reads the active import energy register (Wh) out of OCPP meter values. Both versions default an unqualified
 * sampled value to exactly that (measurand Energy.Active.Import.Register, unit Wh); a total is preferred over a phase
 * value, and a reading taken in the wanted context (Transaction.Begin/End) over any other. A meter that reports the
 * register per phase only has its total as the sum of its phases (L1, L2, L3, each to neutral or not) in one sample.
 */

const ENERGY_REGISTER = 'Energy.Active.Import.Register';

export interface SampledValue16 {
  value: string;
  context?: string;
  format?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}

export interface MeterValue16 {
  timestamp: string;
  sampledValue: SampledValue16[];
}

export interface SampledValue201 {
  value: number;
  context?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unitOfMeasure?: { unit?: string; multiplier?: number };
}

export interface MeterValue201 {
  timestamp: string;
  sampledValue: SampledValue201[];
}

export interface EnergyReading {
  wh: number;
  sampledAt: string;
}

interface Candidate {
  wh: number;
  context: string | undefined;
  phase: string | undefined;
  sampledAt: string;
  /** Which meter value of the message it was read from: phases add up within one. */
  meterValue: number;
}

/** The phase a per-phase register belongs to; undefined for the neutral and line-to-line values, never summed. */
function conductor(phase: string): string | undefined {
  return /^(L[123])(-N)?$/.exec(phase)?.[1];
}

/**
 * Adds, for each meter value without a total, the sum of its per-phase registers per context as a total: a meter
 * reporting only L1, L2 and L3 would otherwise have one phase taken for the whole energy.
 */
function withPhaseSums(candidates: Candidate[]): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const key = `${candidate.meterValue}\u0000${candidate.context ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  const withTotal = new Set(
    candidates.filter((candidate) => candidate.phase === undefined).map((candidate) => candidate.meterValue),
  );
  const sums: Candidate[] = [];
  for (const group of groups.values()) {
    // A meter value with a total in any context is read by it: its phases are not added up.
    if (withTotal.has(group[0].meterValue)) continue;
    const byConductor = new Map<string, number>();
    for (const candidate of group) {
      const line = candidate.phase === undefined ? undefined : conductor(candidate.phase);
      if (line !== undefined && !byConductor.has(line)) byConductor.set(line, candidate.wh);
    }
    if (byConductor.size === 0) continue;
    const wh = [...byConductor.values()].reduce((total, value) => total + value, 0);
    sums.push({ ...group[0], wh, phase: undefined });
  }
  // Sums go first within their meter value: of equal rank, a later candidate wins (pick).
  return [...sums, ...candidates].sort((a, b) => a.meterValue - b.meterValue);
}

function energyCandidates16(meterValues: MeterValue16[]): Candidate[] {
  return meterValues.flatMap((meterValue, index) =>
    meterValue.sampledValue.flatMap((sample): Candidate[] => {
      if ((sample.measurand ?? ENERGY_REGISTER) !== ENERGY_REGISTER) return [];
      // SignedData carries an opaque signed blob, not a number.
      if (sample.format === 'SignedData') return [];
      // A blank value (a meter without a reading yet) is no reading; Number('') would make it 0 Wh.
      if (sample.value.trim() === '') return [];
      const value = Number(sample.value);
      if (!Number.isFinite(value)) return [];
      const factor = (sample.unit ?? 'Wh') === 'kWh' ? 1000 : 1;
      return [
        {
          wh: value * factor,
          context: sample.context,
          phase: sample.phase,
          sampledAt: meterValue.timestamp,
          meterValue: index,
        },
      ];
    }),
  );
}

function energyCandidates201(meterValues: MeterValue201[]): Candidate[] {
  return meterValues.flatMap((meterValue, index) =>
    meterValue.sampledValue.flatMap((sample): Candidate[] => {
      if ((sample.measurand ?? ENERGY_REGISTER) !== ENERGY_REGISTER) return [];
      const unit = sample.unitOfMeasure?.unit ?? 'Wh';
      if (unit !== 'Wh' && unit !== 'kWh') return [];
      const factor = (unit === 'kWh' ? 1000 : 1) * 10 ** (sample.unitOfMeasure?.multiplier ?? 0);
      return [
        {
          wh: sample.value * factor,
          context: sample.context,
          phase: sample.phase,
          sampledAt: meterValue.timestamp,
          meterValue: index,
        },
      ];
    }),
  );
}

function pick(read: Candidate[], preferredContext: string | undefined): EnergyReading | null {
  const ranked = withPhaseSums(read)
    .map((candidate, index) => ({
      candidate,
      index,
      score:
        (candidate.phase === undefined ? 2 : 0) +
        (preferredContext && candidate.context === preferredContext ? 4 : 0),
    }))
    // Highest score first; among equals the latest sample (the arrays are in time order).
    .sort((a, b) => b.score - a.score || b.index - a.index);
  const best = ranked[0]?.candidate;
  return best ? { wh: Math.round(best.wh * 1000) / 1000, sampledAt: best.sampledAt } : null;
}

export function energyReading16(
  meterValues: MeterValue16[] | undefined,
  preferredContext?: string,
): EnergyReading | null {
  return pick(energyCandidates16(meterValues ?? []), preferredContext);
}

export function energyReading201(
  meterValues: MeterValue201[] | undefined,
  preferredContext?: string,
): EnergyReading | null {
  return pick(energyCandidates201(meterValues ?? []), preferredContext);
}
