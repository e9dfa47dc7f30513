import { AssetsSubjects, type MeterValuesEvent, type PlugFilter } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import type { BatchOutcome, DeliveredEvent } from '@cpc/nats';
import type { RunningService } from '@cpc/service-runtime';
import { serveAsNestService, ServiceTestRig } from '@cpc/testing';
import { loadCommandServiceConfig } from '../../command-service.config.js';
import { createControlDataSource } from '../../data-source.js';
import { MeterValueEventsConsumer } from '../../meter-values/meter-value-events.consumer.js';
import { startCommandService } from '../../start-command-service.js';
import { ChargingSessionEventsConsumer } from '../charging-session-events.consumer.js';

/** A plug as assets-service lists it, as far as the sessions' plug look-ups read it. */
export interface PlugOfController {
  uuid: string;
  connector_id: number;
  evse_id: number;
}

/** command-service on the rig's PostgreSQL and NATS, with its consumers at hand for events handed over directly. */
export interface CommandServiceWithPlugs {
  rig: ServiceTestRig;
  service: RunningService;
  /** The charging-session consumer's handling of one batch, as its JetStream consumer would hand it over. */
  handleSessionEvents(batch: DeliveredEvent[]): Promise<BatchOutcome>;
  /** The meter-values consumer's handling of one event. */
  handleMeterValues(event: MeterValuesEvent): Promise<void>;
}

/**
 * Starts command-service (migrated) with assets-service stood in for as far as plug look-ups go: `plugsOf` answers
 * them (none by default), filtered by the request's connector and EVSE as assets-service filters.
 */
export async function startCommandServiceWithPlugs(
  options: { plugsOf?: (controllerUuid: string) => PlugOfController[]; logLevel?: string } = {},
): Promise<CommandServiceWithPlugs> {
  const plugsOf = options.plugsOf ?? (() => []);
  let service: RunningService | undefined;
  const rig = await ServiceTestRig.start({
    migrate: (databaseUrl) => migrateServiceSchema(createControlDataSource(databaseUrl)),
    beforeStart: (connection) => {
      serveAsNestService<{ filter: PlugFilter }>(connection, AssetsSubjects.listPlugs, ({ payload }) => {
        const { filter } = payload;
        const items = plugsOf(filter.controller_uuid ?? '').filter(
          (plug) =>
            (filter.connector_id === undefined || plug.connector_id === filter.connector_id) &&
            (filter.evse_id === undefined || plug.evse_id === filter.evse_id),
        );
        return { items, pagination: { page: 1, total_pages: 1, page_size: 50, has_more: false } };
      });
    },
    start: async ({ natsUrl, databaseUrl }) =>
      (service = await startCommandService(
        loadCommandServiceConfig({
          NATS_URL: natsUrl,
          DATABASE_URL: databaseUrl,
          HEALTH_PORT: '0',
          LOG_LEVEL: options.logLevel ?? 'silent',
        }),
      )),
  });
  const running = service!;
  return {
    rig,
    service: running,
    handleSessionEvents: (batch) =>
      running.app.get(ChargingSessionEventsConsumer, { strict: false }).handleBatch(batch),
    handleMeterValues: (event) => running.app.get(MeterValueEventsConsumer, { strict: false }).handle(event),
  };
}
