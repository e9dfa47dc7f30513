import type { MeterSample } from '@cpc/contracts';
import type { MeterValue16, MeterValue201 } from './energy-meter-reading.js';
import { utcTime } from './ocpp-time.js';

/** OCPP's defaults for what a sampled value leaves out (the same in 1.6 and 2.0.1). */
const DEFAULTS = {
  measurand: 'Energy.Active.Import.Register',
  context: 'Sample.Periodic',
  location: 'Outlet',
  unit: 'Wh',
} as const;

/** 1.6 sampled values as numbers; SignedData (an opaque signed blob) and values that are not numbers are left out. */
export function meterSamples16(meterValues: MeterValue16[] | undefined): MeterSample[] {
  return (meterValues ?? []).flatMap((meterValue) =>
    meterValue.sampledValue.flatMap((sample): MeterSample[] => {
      if (sample.format === 'SignedData') return [];
      const value = Number(sample.value);
      if (sample.value.trim() === '' || !Number.isFinite(value)) return [];
      return [
        {
          sampledAt: utcTime(meterValue.timestamp),
          measurand: sample.measurand ?? DEFAULTS.measurand,
          phase: sample.phase ?? null,
          location: sample.location ?? DEFAULTS.location,
          unit: sample.unit ?? DEFAULTS.unit,
          context: sample.context ?? DEFAULTS.context,
          value,
        },
      ];
    }),
  );
}

/** 2.0.1 sampled values, with the unit's power-of-ten multiplier applied to the value. */
export function meterSamples201(meterValues: MeterValue201[] | undefined): MeterSample[] {
  return (meterValues ?? []).flatMap((meterValue) =>
    meterValue.sampledValue.flatMap((sample): MeterSample[] => {
      const value = sample.value * 10 ** (sample.unitOfMeasure?.multiplier ?? 0);
      if (!Number.isFinite(value)) return [];
      return [
        {
          sampledAt: utcTime(meterValue.timestamp),
          measurand: sample.measurand ?? DEFAULTS.measurand,
          phase: sample.phase ?? null,
          location: sample.location ?? DEFAULTS.location,
          unit: sample.unitOfMeasure?.unit ?? DEFAULTS.unit,
          context: sample.context ?? DEFAULTS.context,
          value,
        },
      ];
    }),
  );
}
