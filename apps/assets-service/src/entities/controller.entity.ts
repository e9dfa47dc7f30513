import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ConnectionStatus, SecurityProfile } from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'controllers' })
export class ControllerEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('uuid', { name: 'location_uuid' }) locationUuid: string;
  @Column('varchar') name: string;
  @Column('varchar', { name: 'ocpp_identity' }) ocppIdentity: string;
  /** scrypt hash (see password-hash.ts); null for security profile 0/3 without a password. */
  @Column('varchar', { name: 'ocpp_password_hash', nullable: true }) ocppPasswordHash: string | null;
  @Column('smallint', { name: 'security_profile' }) securityProfile: SecurityProfile;
  /** Grows with every change of the password, security profile or identity (see ControllerCredentialsChangedEvent). */
  @Column('integer', { name: 'credentials_version' }) credentialsVersion: number;
  @Column('varchar', { name: 'connection_status' }) connectionStatus: ConnectionStatus;
  /** The connection the controller is known by while online (from the gateway's connected event). */
  @Column('varchar', { name: 'connection_id', nullable: true }) connectionId: string | null;
  /** When the connection status (or connection) last changed. */
  @Column('timestamptz', { name: 'connection_changed_at', nullable: true }) connectionChangedAt: Date | null;
  /**
   * The key (occurredAt, stream sequence) of the connect of the connection the controller is, or was last, known by,
   * and the newest disconnect handled that was newer than it (see charge-points/charge-point-state.ts).
   */
  @Column('timestamptz', { name: 'connection_opened_at', nullable: true }) connectionOpenedAt: Date | null;
  @Column('bigint', { name: 'connection_opened_seq', nullable: true }) connectionOpenedSeq: string | null;
  @Column('varchar', { name: 'connection_closed_id', nullable: true }) connectionClosedId: string | null;
  @Column('timestamptz', { name: 'connection_closed_at', nullable: true }) connectionClosedAt: Date | null;
  @Column('bigint', { name: 'connection_closed_seq', nullable: true }) connectionClosedSeq: string | null;
  @Column('varchar', { name: 'ocpp_protocol', nullable: true }) ocppProtocol: string | null;
  @Column('timestamptz', { name: 'last_seen_at', nullable: true }) lastSeenAt: Date | null;
  @Column('varchar', { nullable: true }) vendor: string | null;
  @Column('varchar', { nullable: true }) model: string | null;
  @Column('varchar', { name: 'serial_number', nullable: true }) serialNumber: string | null;
  @Column('varchar', { name: 'firmware_version', nullable: true }) firmwareVersion: string | null;
  /** When the boot information that was applied happened; older boots are ignored. */
  @Column('timestamptz', { name: 'booted_at', nullable: true }) bootedAt: Date | null;
  /** The stream sequence of that boot: breaks ties of booted_at. */
  @Column('bigint', { name: 'booted_seq', nullable: true }) bootedSeq: string | null;
  /** The latest firmware / diagnostics (log upload) status the charge point reported, and when it was received. */
  @Column('varchar', { name: 'firmware_status', nullable: true }) firmwareStatus: string | null;
  @Column('timestamptz', { name: 'firmware_status_at', nullable: true }) firmwareStatusAt: Date | null;
  @Column('varchar', { name: 'diagnostics_status', nullable: true }) diagnosticsStatus: string | null;
  @Column('timestamptz', { name: 'diagnostics_status_at', nullable: true }) diagnosticsStatusAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
