import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An event written in the same transaction as the change it reports, published to JetStream afterwards. */
@Entity({ schema: 'assets', name: 'outbox_events' })
export class OutboxEventEntity {
  @PrimaryColumn('uuid', { name: 'event_id' }) eventId: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('varchar') subject: string;
  @Column('jsonb') envelope: unknown;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
