import { randomUUID } from 'node:crypto';
import type { MeterValuesEvent } from '@cpc/contracts';

/** A meter-values event of one Power.Active.Import sample of 7 kW on connector 1. */
export const meterEvent = (
  tenantUuid: string,
  controllerUuid: string,
  transactionId: string | null,
): MeterValuesEvent => ({
  eventId: randomUUID(),
  occurredAt: new Date().toISOString(),
  tenantUuid,
  data: {
    controllerUuid,
    ocppIdentity: 'CP',
    transactionId,
    evseId: null,
    connectorId: 1,
    samples: [
      {
        sampledAt: '2026-03-05T10:05:00.000Z',
        measurand: 'Power.Active.Import',
        phase: null,
        location: 'Outlet',
        unit: 'W',
        context: 'Sample.Periodic',
        value: 7000,
      },
    ],
  },
});
