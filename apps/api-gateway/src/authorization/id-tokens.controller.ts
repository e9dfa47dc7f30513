import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AuthorizationSubjects,
  type IdTokenImportResult,
  type IdTokenSortField,
  type IdTokenView,
  type Principal,
} from '@cpc/contracts';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { RequirePermission } from '../authentication/require-permission.decorator.js';
import {
  CURSOR_LIST_DESCRIPTION,
  CursorPaginationBody,
  PagePaginationBody,
  toCursorListPayload,
} from '../common/asset-list-query.js';
import { AssetUuidPipe } from '../common/asset-uuid.pipe.js';
import { AssetRequests } from '../assets/asset-requests.js';
import {
  CreateRoute,
  DeleteRoute,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../assets/asset-route.decorators.js';
import { ApiErrorResponses, BODY_ERROR_STATUSES, STANDARD_ERROR_STATUSES } from '../openapi/error-bodies.js';
import {
  CreateIdTokenBody,
  ID_TOKEN_EXTRA_MODELS,
  ID_TOKEN_FILTER_DOCS,
  IdTokenImportBody,
  IdTokenImportResponse,
  IdTokenListQuery,
  IdTokenListResponse,
  IdTokenResponse,
  UpdateIdTokenBody,
} from './id-token.dto.js';
import { importParts, NDJSON_CONTENT_TYPE } from './id-token-import.js';

/** Drivers' id tokens: what a charge point sends to be allowed to charge. */
@ApiTags('authorization: id tokens')
@ApiExtraModels(...ID_TOKEN_EXTRA_MODELS, PagePaginationBody, CursorPaginationBody)
@Controller('authorization/id-tokens')
export class IdTokensController {
  constructor(private readonly assets: AssetRequests) {}

  @CreateRoute(
    { permission: 'authorization:id-tokens:create', summary: 'Add a driver id token' },
    IdTokenResponse,
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateIdTokenBody,
  ): Promise<{ id_token: IdTokenView }> {
    return { id_token: await this.assets.send(AuthorizationSubjects.createIdToken, principal, { ...body }) };
  }

  @ListRoute(
    {
      permission: 'authorization:id-tokens:list',
      summary: 'List id tokens',
      description: CURSOR_LIST_DESCRIPTION,
    },
    IdTokenListResponse,
    ID_TOKEN_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: IdTokenListQuery) {
    const payload = toCursorListPayload<object, IdTokenSortField>(query);
    return this.assets.list<IdTokenView, 'id_tokens'>(
      AuthorizationSubjects.listIdTokens,
      principal,
      payload,
      'id_tokens',
    );
  }

  @ReadRoute(
    { permission: 'authorization:id-tokens:read', summary: 'Read an id token' },
    IdTokenResponse,
    'Id token',
  )
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ id_token: IdTokenView }> {
    return { id_token: await this.assets.send(AuthorizationSubjects.getIdToken, principal, { uuid }) };
  }

  @UpdateRoute(
    { permission: 'authorization:id-tokens:update', summary: 'Change some fields of an id token' },
    IdTokenResponse,
    'Id token',
  )
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateIdTokenBody,
  ): Promise<{ id_token: IdTokenView }> {
    const payload = { uuid, changes: { ...body } };
    return { id_token: await this.assets.send(AuthorizationSubjects.updateIdToken, principal, payload) };
  }

  @DeleteRoute({ permission: 'authorization:id-tokens:delete', summary: 'Delete an id token' }, 'Id token')
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<Record<string, never>> {
    await this.assets.send(AuthorizationSubjects.deleteIdToken, principal, { uuid });
    return {};
  }
}

/** The import beside the collection: `POST /authorization/id-tokens:import`. */
@ApiTags('authorization: id tokens')
@Controller('authorization')
export class IdTokenImportController {
  constructor(private readonly assets: AssetRequests) {}

  /**
   * `POST /authorization/id-tokens:import` (the literal colon is written `::` for the router). Sent to assets-service
   * in parts that each fit one NATS message, then committed as one transaction.
   */
  @Post('id-tokens::import')
  @HttpCode(200)
  @RequirePermission('authorization:id-tokens:create')
  @ApiOperation({
    summary: 'Add or replace up to 10,000 id tokens at once, all or nothing',
    description:
      'A JSON body `{"id_tokens": [...]}` or NDJSON (`application/x-ndjson`, one token per line). A token with the ' +
      'value and type of a known one replaces it. Any invalid token fails the whole import; each problem is a 422 ' +
      'item whose `parameter` names the token by its index, e.g. `id_tokens[12].type`.',
  })
  @ApiConsumes('application/json', NDJSON_CONTENT_TYPE)
  @ApiBody({ type: IdTokenImportBody })
  @ApiErrorResponses([...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES])
  @ApiOkResponse({ type: IdTokenImportResponse })
  async import(
    @CurrentPrincipal() principal: Principal,
    @Body() body: IdTokenImportBody,
  ): Promise<IdTokenImportResult> {
    const importUuid = randomUUID();
    const tokens = body.id_tokens.map((token) => ({ ...token }));
    for (const part of importParts(tokens)) {
      await this.assets.send(AuthorizationSubjects.importIdTokensPart, principal, { importUuid, ...part });
    }
    return this.assets.send(AuthorizationSubjects.importIdTokensCommit, principal, {
      importUuid,
      total: tokens.length,
    });
  }
}
