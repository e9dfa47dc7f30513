import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'roles' })
export class RoleEntity {
  @PrimaryColumn('uuid')
  uuid: string;

  @Column({ name: 'tenant_uuid', type: 'uuid' })
  tenantUuid: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** `area:resource:action` grants; a shorter grant covers everything below it, `*` covers all. */
  @Column({ type: 'text', array: true })
  permissions: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
