import { Inject, Injectable, Logger } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { chargingSessionUuidOf, type MeterValuesEvent } from '@cpc/contracts';
import { isDataException, markInsertingTransaction, runStatement } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { writingNewSession } from '../charging-sessions/session-first-write.js';
import { SESSION_INSERTS_TRANSACTION_MARK } from '../repositories/charging-sessions.repository.js';
import { insertMeterSamples, recordSessionMeterSummaries } from '../repositories/meter-values.repository.js';

/**
 * Writes meter-value events in groups (GroupedCalls): the events that arrive while a group is being written go
 * together in the next, one statement for all their samples and one for their sessions' summaries (peak power, last
 * sample; recordSessionMeterSummaries finds each sample's session), in one transaction. Each event's promise settles
 * with its group, so it is acknowledged only once stored. A group that fails on a value PostgreSQL refuses (a data
 * exception) is written again event by event, so that only the event with that value is left out (with a warning)
 * instead of every event of the group failing with it, for ever.
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
    /** Per sample: the uuid of the first session of its transaction id, should the id have none yet. */
    const firstSessionUuids: (string | null)[] = [];
    for (const event of events) {
      const { data } = event;
      const firstSessionUuid =
        data.transactionId === null
          ? null
          : chargingSessionUuidOf(event.tenantUuid, data.controllerUuid, data.transactionId);
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
        firstSessionUuids.push(firstSessionUuid);
      });
    }
    const ofSessions = firstSessionUuids.some((uuid) => uuid !== null);
    // The whole transaction again after a race on a new session's first write: its failed statement aborted it.
    await writingNewSession(() =>
      this.dataSource.transaction(async (manager) => {
        await runStatement(manager, insertMeterSamples, rows);
        if (!ofSessions) return;
        // Its summaries may create sessions, readable only at the commit: the list by created_at holds them back.
        await markInsertingTransaction(manager, SESSION_INSERTS_TRANSACTION_MARK);
        await runStatement(manager, recordSessionMeterSummaries, {
          uuids: firstSessionUuids,
          tenantUuids: rows.tenantUuids,
          controllerUuids: rows.controllerUuids,
          transactionIds: rows.transactionIds,
          sampledAts: rows.sampledAts,
          measurands: rows.measurands,
          phases: rows.phases,
          units: rows.units,
          values: rows.values,
        });
      }),
    );
  }
}
