import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type ApiKeyView, AuthAdminSubjects, type CreatedApiKeyView, type Principal } from '@cpc/contracts';
import { AssetRequests } from '../assets/asset-requests.js';
import {
  CreateRoute,
  DeleteRoute,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../assets/asset-route.decorators.js';
import { CurrentPrincipal } from '../authentication/current-principal.decorator.js';
import { toListPayload } from '../common/asset-list-query.js';
import { AssetUuidPipe } from '../common/asset-uuid.pipe.js';
import { type AdminCaller, AdminRequests, CurrentCaller } from './admin-requests.js';
import {
  API_KEY_FILTER_DOCS,
  ApiKeyListQuery,
  ApiKeyListResponse,
  ApiKeyResponse,
  CreateApiKeyBody,
  CreatedApiKeyResponse,
  UpdateApiKeyBody,
} from './admin.dto.js';

const HELD = 'The caller must hold every permission of the key’s role, and of a role it gives (else 403).';

/** The tenant's API keys (auth-service): credentials of machines, each with a role. */
@ApiTags('admin: api-keys')
@Controller('admin/api-keys')
export class ApiKeysController {
  constructor(
    private readonly reads: AssetRequests,
    private readonly changes: AdminRequests,
  ) {}

  @CreateRoute(
    {
      permission: 'admin:api-keys:create',
      summary: 'Create an API key',
      description: `The answer carries the private key, the only time it is shown. ${HELD}`,
    },
    CreatedApiKeyResponse,
  )
  create(@CurrentCaller() caller: AdminCaller, @Body() body: CreateApiKeyBody) {
    return this.changes.change<'api_key', CreatedApiKeyView>(
      'api_key',
      AuthAdminSubjects.createApiKey,
      caller,
      { ...body },
    );
  }

  @ListRoute(
    { permission: 'admin:api-keys:list', summary: 'List API keys' },
    ApiKeyListResponse,
    API_KEY_FILTER_DOCS,
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: ApiKeyListQuery) {
    const payload = toListPayload(query);
    return this.reads.list<ApiKeyView, 'api_keys'>(
      AuthAdminSubjects.listApiKeys,
      principal,
      payload,
      'api_keys',
    );
  }

  @ReadRoute({ permission: 'admin:api-keys:read', summary: 'Read an API key' }, ApiKeyResponse, 'API key')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ api_key: ApiKeyView }> {
    return { api_key: await this.reads.send(AuthAdminSubjects.getApiKey, principal, { uuid }) };
  }

  @UpdateRoute(
    {
      permission: 'admin:api-keys:update',
      summary: 'Rename an API key or give it another role',
      description: `Another role ends the key’s tokens at once. ${HELD}`,
    },
    ApiKeyResponse,
    'API key',
  )
  update(
    @CurrentCaller() caller: AdminCaller,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateApiKeyBody,
  ) {
    const payload = { uuid, changes: { ...body } };
    return this.changes.change<'api_key', ApiKeyView>(
      'api_key',
      AuthAdminSubjects.updateApiKey,
      caller,
      payload,
    );
  }

  @DeleteRoute(
    {
      permission: 'admin:api-keys:delete',
      summary: 'Revoke an API key',
      description: `The key can never be used again and its tokens end at once; it stays listed as revoked. ${HELD}`,
    },
    'API key',
  )
  delete(@CurrentCaller() caller: AdminCaller, @Param('uuid', AssetUuidPipe) uuid: string) {
    return this.changes.remove(AuthAdminSubjects.revokeApiKey, caller, uuid);
  }
}
