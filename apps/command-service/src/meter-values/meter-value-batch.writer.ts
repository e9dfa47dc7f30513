import { Inject, Injectable, Logger } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { chargingSessionUuidOf, type MeterValuesEvent } from '@cpc/contracts';
import { isDataException, markInsertingTransaction, runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { writingNewSession } from '../charging-sessions/session-first-write.js';
import { storableReading } from '../charging-sessions/storable-values.js';
import { SESSION_INSERTS_TRANSACTION_MARK } from '../repositories/charging-sessions.repository.js';
import { insertMeterSamples, recordSessionMeterSummaries } from '../repositories/meter-values.repository.js';

interface SessionSummary {
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  peakPowerW: number | null;
  lastSampleAt: string;
}

const POWER = 'Power.Active.Import';
const POWER_FACTOR: Record<string, number> = { W: 1, kW: 1000 };

/**
 * Writes meter-value events in groups (GroupedCalls): the events that arrive while a group is being written go
 * together in the next, one statement for all their samples and one for their sessions' summaries, in one
 * transaction. Each event's promise settles with its group, so it is acknowledged only once stored. A group that
 * fails on a value PostgreSQL refuses (a data exception) is written again event by event, so that only the event with
 * that value is left out (with a warning) instead of every event of the group failing with it, for ever.
 */
@Injectable()
export class MeterValueBatchWriter {
  private readonly logger = new Logger(MeterValueBatchWriter.name);
  private readonly groups: GroupedCalls<MeterValuesEvent, void>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(COMMAND_SERVICE_CONFIG) config: CommandServiceConfig,
  ) {
    this.groups = new GroupedCalls<MeterValuesEvent, void>((group) => this.storeGroup(group), {
      maxInFlight: config.tuning.meterValueInsertsInFlight,
      maxGroup: config.tuning.meterValueBatchMaxEvents,
    });
  }

  write(event: MeterValuesEvent): Promise<void> {
    return this.groups.call(event);
  }

  private async storeGroup(group: GroupedCall<MeterValuesEvent, void>[]): Promise<void> {
    try {
      await this.store(group.map((call) => call.item));
    } catch (error) {
      if (!isDataException(error)) throw error;
      for (const call of group) {
        await this.store([call.item]).then(
          () => call.resolve(),
          (eventError: unknown) => {
            if (!isDataException(eventError)) return call.reject(eventError);
            this.logger.warn(`not storing meter values ${call.item.eventId}: ${describeError(eventError)}`);
            call.resolve();
          },
        );
      }
      return;
    }
    for (const call of group) call.resolve();
  }

  private async store(events: MeterValuesEvent[]): Promise<void> {
    const rows = {
      tenantUuids: [] as string[],
      controllerUuids: [] as string[],
      transactionIds: [] as (string | null)[],
      evseIds: [] as (number | null)[],
      connectorIds: [] as (number | null)[],
      sampledAts: [] as string[],
      measurands: [] as string[],
      phases: [] as (string | null)[],
      locations: [] as string[],
      units: [] as string[],
      contexts: [] as string[],
      values: [] as number[],
      eventIds: [] as string[],
      sampleIndexes: [] as number[],
    };
    const summaries = new Map<string, SessionSummary>();
    for (const event of events) {
      const { data } = event;
      data.samples.forEach((sample, index) => {
        rows.tenantUuids.push(event.tenantUuid);
        rows.controllerUuids.push(data.controllerUuid);
        rows.transactionIds.push(data.transactionId);
        rows.evseIds.push(data.evseId);
        rows.connectorIds.push(data.connectorId);
        rows.sampledAts.push(sample.sampledAt);
        rows.measurands.push(sample.measurand);
        rows.phases.push(sample.phase);
        rows.locations.push(sample.location);
        rows.units.push(sample.unit);
        rows.contexts.push(sample.context);
        rows.values.push(sample.value);
        rows.eventIds.push(event.eventId);
        rows.sampleIndexes.push(index);
      });
      if (data.transactionId !== null) summarize(summaries, event, data.transactionId);
    }
    // Sessions in one order for every writer, so two batches never wait on each other's rows.
    const sessions = [...summaries.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, summary]) => summary);
    // The whole transaction again after a race on a new session's first write: its failed statement aborted it.
    await writingNewSession(() =>
      this.dataSource.transaction(async (manager) => {
        await runStatement(manager, insertMeterSamples, rows);
        if (sessions.length === 0) return;
        // Its summaries may create sessions, readable only at the commit: the list by created_at holds them back.
        await markInsertingTransaction(manager, SESSION_INSERTS_TRANSACTION_MARK);
        await runStatement(manager, recordSessionMeterSummaries, {
          // The uuid a session's other writers and webhook-service derive from its key.
          uuids: sessions.map((session) =>
            chargingSessionUuidOf(session.tenantUuid, session.controllerUuid, session.transactionId),
          ),
          tenantUuids: sessions.map((session) => session.tenantUuid),
          controllerUuids: sessions.map((session) => session.controllerUuid),
          transactionIds: sessions.map((session) => session.transactionId),
          peakPowersW: sessions.map((session) => session.peakPowerW),
          lastSampleAts: sessions.map((session) => session.lastSampleAt),
        });
      }),
    );
  }
}

/**
 * Folds an event's samples into its session's summary: the highest whole-charger power (of those the column holds),
 * the latest sample time.
 */
function summarize(
  summaries: Map<string, SessionSummary>,
  event: MeterValuesEvent,
  transactionId: string,
): void {
  const { data } = event;
  const key = `${event.tenantUuid}|${data.controllerUuid}|${transactionId}`;
  const summary = summaries.get(key) ?? {
    tenantUuid: event.tenantUuid,
    controllerUuid: data.controllerUuid,
    transactionId,
    peakPowerW: null,
    lastSampleAt: data.samples[0].sampledAt,
  };
  for (const sample of data.samples) {
    if (Date.parse(sample.sampledAt) > Date.parse(summary.lastSampleAt))
      summary.lastSampleAt = sample.sampledAt;
    const factor = POWER_FACTOR[sample.unit];
    // A power beyond what the session's numeric(16, 3) column holds (10 TW) is a broken meter's, never a peak.
    const watts = factor === undefined ? null : storableReading(sample.value * factor);
    if (sample.measurand === POWER && sample.phase === null && watts !== null) {
      summary.peakPowerW = Math.max(summary.peakPowerW ?? -Infinity, watts);
    }
  }
  summaries.set(key, summary);
}
