import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ChargePointEventSubjects } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import type { DataSource } from 'typeorm';
import { COMMAND_SERVICE_TUNING, type CommandServiceConfig } from '../command-service.config.js';
import type { SessionPlugState } from '../repositories/charging-sessions.repository.js';
import type { ReservationsService } from '../reservations/reservations.service.js';
import { ChargingSessionEventsConsumer } from './charging-session-events.consumer.js';
import type { ChargingSessionPlugResolver } from './charging-session-plug.resolver.js';
import {
  type SessionController,
  sessionControllerKey,
  ChargingSessionsService,
} from './charging-sessions.service.js';
import { DeliveredChargePointEvents } from './testing/delivered-charge-point-events.js';

const tenantUuid = randomUUID();
const events = new DeliveredChargePointEvents(tenantUuid);
const boot = (controllerUuid: string) => events.boot(controllerUuid);
const status = (controllerUuid: string, connectorId: number, value?: string) =>
  events.connectorStatus(controllerUuid, connectorId, value);
const started = (controllerUuid: string) => events.transactionStarted(controllerUuid, 'tx-1', 1);

/** The consumer on a stand-in sessions service whose controllers `withOpenSessions` have one; records what it does. */
function consumerWith(withOpenSessions: readonly string[]) {
  const open = new Set(
    withOpenSessions.map((controllerUuid) => sessionControllerKey({ tenantUuid, controllerUuid })),
  );
  const done: string[] = [];
  const session: SessionPlugState = {
    uuid: randomUUID(),
    plugUuid: randomUUID(),
    connectorId: 1,
    evseId: null,
    started: true,
  };
  const sessions = {
    controllersWithOpenSessions: jest.fn((controllers: readonly SessionController[]) =>
      Promise.resolve(new Set(controllers.map(sessionControllerKey).filter((key) => open.has(key)))),
    ),
    markRebooted: jest.fn((_tenant: string, controllerUuid: string) => {
      done.push(`boot ${controllerUuid}`);
      return Promise.resolve();
    }),
    endRebootedOnConnector: jest.fn((_tenant: string, controllerUuid: string, connectorId: number) => {
      done.push(`available ${controllerUuid} ${connectorId}`);
      return Promise.resolve(0);
    }),
    recordStart: jest.fn((_tenant: string, data: { controllerUuid: string }) => {
      done.push(`start ${data.controllerUuid}`);
      return Promise.resolve(session);
    }),
    supersedeOlder: jest.fn(() => Promise.resolve(0)),
  };
  const reservations = { recordUse: () => Promise.resolve() };
  const consumer = new ChargingSessionEventsConsumer(
    {} as JetStreamEventBus,
    sessions as unknown as ChargingSessionsService,
    {} as ChargingSessionPlugResolver,
    reservations as unknown as ReservationsService,
    { tuning: COMMAND_SERVICE_TUNING } as CommandServiceConfig,
  );
  return { consumer, sessions, done };
}

describe('ChargingSessionEventsConsumer batches', () => {
  it('asks once which controllers have an open session, and skips the boots and statuses of the others', async () => {
    const [withSession, without] = [randomUUID(), randomUUID()];
    const { consumer, sessions, done } = consumerWith([withSession]);
    await consumer.handleBatch([
      boot(without),
      // The database answers in lower case.
      boot(withSession.toUpperCase()),
      status(without, 1),
      status(withSession, 1),
      status(without, 2),
      status(withSession, 2, 'Charging'),
      events.event(ChargePointEventSubjects.connected, without),
    ]);
    expect(sessions.controllersWithOpenSessions).toHaveBeenCalledTimes(1);
    const [asked] = sessions.controllersWithOpenSessions.mock.calls[0];
    expect(new Set(asked.map(sessionControllerKey))).toEqual(
      new Set(
        [without, withSession].map((controllerUuid) => sessionControllerKey({ tenantUuid, controllerUuid })),
      ),
    );
    expect(sessions.markRebooted).toHaveBeenCalledTimes(1);
    expect(sessions.endRebootedOnConnector).toHaveBeenCalledTimes(1);
    expect(done).toEqual([`boot ${withSession.toUpperCase()}`, `available ${withSession} 1`]);
  });

  it('handles the boots and statuses after a transaction of the same controller in the batch, in stream order', async () => {
    const controllerUuid = randomUUID();
    const { consumer, done } = consumerWith([]);
    await consumer.handleBatch([
      status(controllerUuid, 1),
      started(controllerUuid),
      boot(controllerUuid),
      status(controllerUuid, 1),
    ]);
    expect(done).toEqual([
      `start ${controllerUuid}`,
      `boot ${controllerUuid}`,
      `available ${controllerUuid} 1`,
    ]);
  });

  it('names an event that failed for redelivery and goes on with the rest of the batch', async () => {
    const [failing, fine] = [randomUUID(), randomUUID()];
    const { consumer, sessions, done } = consumerWith([failing, fine]);
    sessions.markRebooted.mockImplementationOnce(() => Promise.reject(new Error('the database refused it')));
    const outcome = await consumer.handleBatch([boot(failing), boot(fine), status(fine, 1)]);
    expect(outcome.redeliver).toEqual(new Set([0]));
    expect(done).toEqual([`boot ${fine}`, `available ${fine} 1`]);
  });
});

describe('ChargingSessionsService.controllersWithOpenSessions', () => {
  it('asks the database nothing for no controllers', async () => {
    // A database that fails whatever it is asked.
    const service = new ChargingSessionsService({} as DataSource);
    await expect(service.controllersWithOpenSessions([])).resolves.toEqual(new Set());
  });
});
