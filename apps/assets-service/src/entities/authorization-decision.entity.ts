import { Column, Entity, PrimaryColumn } from 'typeorm';
import type {
  AuthorizationMessageKind,
  AuthorizationReason,
  AuthorizationResult,
  IdTokenType,
} from '@cpc/contracts';

@Entity({ schema: 'assets', name: 'authorization_decisions' })
export class AuthorizationDecisionEntity {
  @PrimaryColumn('uuid') uuid: string;
  @Column('uuid', { name: 'tenant_uuid' }) tenantUuid: string;
  @Column('varchar', { name: 'id_token' }) idToken: string;
  @Column('varchar', { nullable: true }) type: IdTokenType | null;
  @Column('uuid', { name: 'id_token_uuid', nullable: true }) idTokenUuid: string | null;
  @Column('uuid', { name: 'controller_uuid' }) controllerUuid: string;
  @Column('uuid', { name: 'location_uuid' }) locationUuid: string;
  @Column('varchar') result: AuthorizationResult;
  @Column('varchar') reason: AuthorizationReason;
  @Column('varchar', { name: 'message_kind' }) messageKind: AuthorizationMessageKind;
  @Column('timestamptz', { name: 'decided_at' }) decidedAt: Date;
}
