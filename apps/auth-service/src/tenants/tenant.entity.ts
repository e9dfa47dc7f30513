import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { AuthorizationMode, EntityType } from '@cpc/contracts';

@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn('uuid')
  uuid: string;

  @Column({ type: 'varchar', length: 128 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Entity type looked up when a token request names no `context`. */
  @Column({ name: 'default_context', type: 'varchar', length: 16 })
  defaultContext: EntityType;

  /** Whether charge points of security profile 0 (no credentials) may connect; off unless an operator allows it. */
  @Column({ name: 'allows_security_profile_0', type: 'boolean', default: false })
  allowsSecurityProfile0: boolean;

  /** How the ocpp-gateway answers drivers' id tokens (strict unless an operator chose accept_unknown). */
  @Column({ name: 'authorization_mode', type: 'varchar', length: 16, default: 'strict' })
  authorizationMode: AuthorizationMode;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
