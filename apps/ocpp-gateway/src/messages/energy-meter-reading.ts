/**
 * Reads the active import energy register (Wh) out of OCPP meter values. Both versions default an unqualified
 * sampled value to exactly that (measurand Energy.Active.Import.Register, unit Wh); a total is preferred over a phase
 * value, and a reading taken in the wanted context (Transaction.Begin/End) over any other.
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
}

function energyCandidates16(meterValues: MeterValue16[]): Candidate[] {
  return meterValues.flatMap((meterValue) =>
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
        { wh: value * factor, context: sample.context, phase: sample.phase, sampledAt: meterValue.timestamp },
      ];
    }),
  );
}

function energyCandidates201(meterValues: MeterValue201[]): Candidate[] {
  return meterValues.flatMap((meterValue) =>
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
        },
      ];
    }),
  );
}

function pick(candidates: Candidate[], preferredContext: string | undefined): EnergyReading | null {
  const ranked = candidates
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
