import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CursorAssetPage,
  type AssetUuidPayload,
  AuthorizationSubjects,
  type CreateIdTokenPayload,
  type IdTokenFilter,
  type IdTokenImportCommitPayload,
  type IdTokenImportPartPayload,
  type IdTokenImportResult,
  type IdTokenRevisionsRequest,
  type IdTokenRevisionsResponse,
  type IdTokenSnapshotPage,
  type IdTokenSnapshotRequest,
  type IdTokenSortField,
  type IdTokenView,
  type CursorListAssetsPayload,
  type TenantScopedRequest,
  type UpdateAssetPayload,
  type UpdateIdTokenPayload,
} from '@cpc/contracts';
import { IdTokenSnapshots } from './id-token-snapshots.js';
import { IdTokensService } from './id-tokens.service.js';

/** NATS handlers for drivers' id tokens; the tenant always comes from the principal. */
@Controller()
export class IdTokensHandler {
  constructor(
    private readonly tokens: IdTokensService,
    private readonly snapshots: IdTokenSnapshots,
  ) {}

  @MessagePattern(AuthorizationSubjects.createIdToken)
  create(@Payload() request: TenantScopedRequest<CreateIdTokenPayload>): Promise<IdTokenView> {
    return this.tokens.create(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AuthorizationSubjects.listIdTokens)
  list(
    @Payload() request: TenantScopedRequest<CursorListAssetsPayload<IdTokenFilter, IdTokenSortField>>,
  ): Promise<CursorAssetPage<IdTokenView>> {
    return this.tokens.list(request.principal.tenantUuid, request.payload);
  }

  @MessagePattern(AuthorizationSubjects.getIdToken)
  get(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<IdTokenView> {
    return this.tokens.get(request.principal.tenantUuid, request.payload.uuid);
  }

  @MessagePattern(AuthorizationSubjects.updateIdToken)
  update(
    @Payload() request: TenantScopedRequest<UpdateAssetPayload<UpdateIdTokenPayload>>,
  ): Promise<IdTokenView> {
    return this.tokens.update(request.principal.tenantUuid, request.payload.uuid, request.payload.changes);
  }

  @MessagePattern(AuthorizationSubjects.deleteIdToken)
  async delete(@Payload() request: TenantScopedRequest<AssetUuidPayload>): Promise<Record<string, never>> {
    await this.tokens.delete(request.principal.tenantUuid, request.payload.uuid);
    return {};
  }

  @MessagePattern(AuthorizationSubjects.importIdTokensPart)
  async importPart(
    @Payload() request: TenantScopedRequest<IdTokenImportPartPayload>,
  ): Promise<Record<string, never>> {
    await this.tokens.importPart(request.principal.tenantUuid, request.payload);
    return {};
  }

  @MessagePattern(AuthorizationSubjects.idTokenSnapshot)
  snapshot(@Payload() request: IdTokenSnapshotRequest): Promise<IdTokenSnapshotPage> {
    return this.snapshots.page(request);
  }

  @MessagePattern(AuthorizationSubjects.idTokenRevisions)
  revisions(@Payload() request: IdTokenRevisionsRequest): Promise<IdTokenRevisionsResponse> {
    return this.snapshots.revisions(request);
  }

  @MessagePattern(AuthorizationSubjects.importIdTokensCommit)
  importCommit(
    @Payload() request: TenantScopedRequest<IdTokenImportCommitPayload>,
  ): Promise<IdTokenImportResult> {
    return this.tokens.importCommit(request.principal.tenantUuid, request.payload);
  }
}
