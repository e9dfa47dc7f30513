import { energyReading16, energyReading201 } from './energy-meter-reading.js';

describe('energy meter readings', () => {
  it('1.6: reads the import register, defaulting measurand and unit, converting kWh, skipping signed data', () => {
    expect(energyReading16([{ timestamp: 't1', sampledValue: [{ value: '1500' }] }])).toEqual({
      wh: 1500,
      sampledAt: 't1',
    });
    expect(
      energyReading16([
        {
          timestamp: 't1',
          sampledValue: [
            { value: '11', measurand: 'Power.Active.Import', unit: 'kW' },
            { value: '2.5', measurand: 'Energy.Active.Import.Register', unit: 'kWh' },
            { value: 'c2lnbmVk', format: 'SignedData' },
          ],
        },
      ]),
    ).toEqual({ wh: 2500, sampledAt: 't1' });
    expect(
      energyReading16([{ timestamp: 't1', sampledValue: [{ value: '230', measurand: 'Voltage' }] }]),
    ).toBeNull();
    expect(energyReading16(undefined)).toBeNull();
  });

  it('1.6: a blank value is no reading (not 0 Wh)', () => {
    expect(
      energyReading16([{ timestamp: 't1', sampledValue: [{ value: '' }, { value: ' ', unit: 'kWh' }] }]),
    ).toBe(null);
    expect(
      energyReading16([
        { timestamp: 't1', sampledValue: [{ value: '700' }] },
        { timestamp: 't2', sampledValue: [{ value: '' }] },
      ]),
    ).toEqual({ wh: 700, sampledAt: 't1' });
  });

  it('prefers the total over a phase, the wanted context, and the latest sample', () => {
    const values = [
      {
        timestamp: 't1',
        sampledValue: [
          { value: '100', context: 'Transaction.Begin' },
          { value: '40', phase: 'L1' },
        ],
      },
      { timestamp: 't2', sampledValue: [{ value: '300' }, { value: '90', phase: 'L1' }] },
    ];
    expect(energyReading16(values)).toEqual({ wh: 300, sampledAt: 't2' });
    expect(energyReading16(values, 'Transaction.Begin')).toEqual({ wh: 100, sampledAt: 't1' });
  });

  it('2.0.1: applies unit and multiplier, ignores other units', () => {
    expect(
      energyReading201([{ timestamp: 't', sampledValue: [{ value: 12.5, unitOfMeasure: { unit: 'kWh' } }] }]),
    ).toEqual({
      wh: 12500,
      sampledAt: 't',
    });
    expect(
      energyReading201([
        { timestamp: 't', sampledValue: [{ value: 3, unitOfMeasure: { unit: 'Wh', multiplier: 3 } }] },
      ])?.wh,
    ).toBe(3000);
    expect(
      energyReading201([{ timestamp: 't', sampledValue: [{ value: 3, unitOfMeasure: { unit: 'varh' } }] }]),
    ).toBeNull();
  });

  it('sums the phases of a meter that reports the register per phase only, in one sample and context', () => {
    const perPhase = (timestamp: string, context?: string) => ({
      timestamp,
      sampledValue: [
        { value: '1000', phase: 'L1', context },
        { value: '2000', phase: 'L2-N', context },
        { value: '3000', phase: 'L3', context },
        // The neutral and line-to-line values are no part of the total.
        { value: '50', phase: 'N', context },
        { value: '70', phase: 'L1-L2', context },
      ],
    });
    expect(energyReading16([perPhase('t1')])).toEqual({ wh: 6000, sampledAt: 't1' });
    expect(
      energyReading16([perPhase('t1', 'Transaction.Begin'), perPhase('t2')], 'Transaction.Begin'),
    ).toEqual({ wh: 6000, sampledAt: 't1' });
    // A single-phase meter: its one phase is the total.
    expect(energyReading16([{ timestamp: 't1', sampledValue: [{ value: '800', phase: 'L2' }] }])).toEqual({
      wh: 800,
      sampledAt: 't1',
    });
    // A total beside the phases is taken as it is, in whatever context it was reported.
    expect(
      energyReading16([
        {
          timestamp: 't1',
          sampledValue: [
            { value: '100', context: 'Transaction.Begin' },
            { value: '40', phase: 'L1' },
          ],
        },
      ]),
    ).toEqual({ wh: 100, sampledAt: 't1' });
    expect(
      energyReading16([
        { timestamp: 't1', sampledValue: [{ value: '5990' }, ...perPhase('t1').sampledValue] },
      ]),
    ).toEqual({ wh: 5990, sampledAt: 't1' });
    expect(
      energyReading201([
        {
          timestamp: 't',
          sampledValue: [
            { value: 1.5, phase: 'L1', unitOfMeasure: { unit: 'kWh' } },
            { value: 2.5, phase: 'L2', unitOfMeasure: { unit: 'kWh' } },
          ],
        },
      ]),
    ).toEqual({ wh: 4000, sampledAt: 't' });
  });
});
