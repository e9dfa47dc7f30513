import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One transaction of one charge point: one start of an OCPP transaction id (a charge point may use an id again), unique
 * per (tenant, controller, transaction id, start) with at most one whose start is not known yet; every column but the
 * keys may still be unknown, because the gateway's events are applied in whatever order they arrive.
 */
@Entity({ schema: 'control', name: 'charging_sessions' })
export class ChargingSessionEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('uuid', { name: 'controller_uuid' }) controllerUuid: string;
  @Column('uuid', { name: 'plug_uuid', nullable: true }) plugUuid: string | null;
  @Column('integer', { name: 'connector_id', nullable: true }) connectorId: number | null;
  @Column('integer', { name: 'evse_id', nullable: true }) evseId: number | null;
  @Column('varchar', { name: 'ocpp_transaction_id' }) ocppTransactionId: string;
  @Column('varchar', { name: 'id_tag', nullable: true }) idTag: string | null;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { name: 'stopped_at', nullable: true }) stoppedAt: Date | null;
  @Column('numeric', { name: 'meter_start_wh', nullable: true }) meterStartWh: string | null;
  @Column('numeric', { name: 'meter_stop_wh', nullable: true }) meterStopWh: string | null;
  @Column('numeric', { name: 'meter_last_wh', nullable: true }) meterLastWh: string | null;
  @Column('timestamptz', { name: 'meter_last_at', nullable: true }) meterLastAt: Date | null;
  @Column('varchar', { name: 'stop_reason', nullable: true }) stopReason: string | null;
  @Column('timestamptz', { name: 'rebooted_at', nullable: true }) rebootedAt: Date | null;
  @Column('numeric', { name: 'peak_power_w', nullable: true }) peakPowerW: string | null;
  @Column('timestamptz', { name: 'last_sample_at', nullable: true }) lastSampleAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
