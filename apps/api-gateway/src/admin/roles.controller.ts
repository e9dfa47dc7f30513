import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthAdminSubjects, type Principal, type RoleView } from '@cpc/contracts';
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
  CreateRoleBody,
  NAME_FILTER_DOCS,
  RoleListQuery,
  RoleListResponse,
  RoleResponse,
  UpdateRoleBody,
} from './admin.dto.js';

const HELD = 'The caller must hold every permission the role has and is given (else 403).';

/** The tenant's roles (auth-service): named sets of permissions that users and API keys have. */
@ApiTags('admin: roles')
@Controller('admin/roles')
export class RolesController {
  constructor(
    private readonly reads: AssetRequests,
    private readonly changes: AdminRequests,
  ) {}

  @CreateRoute(
    { permission: 'admin:roles:create', summary: 'Create a role', description: HELD },
    RoleResponse,
  )
  create(@CurrentCaller() caller: AdminCaller, @Body() body: CreateRoleBody) {
    return this.changes.change<'role', RoleView>('role', AuthAdminSubjects.createRole, caller, { ...body });
  }

  @ListRoute({ permission: 'admin:roles:list', summary: 'List roles' }, RoleListResponse, NAME_FILTER_DOCS)
  list(@CurrentPrincipal() principal: Principal, @Query() query: RoleListQuery) {
    return this.reads.list<RoleView, 'roles'>(
      AuthAdminSubjects.listRoles,
      principal,
      toListPayload(query),
      'roles',
    );
  }

  @ReadRoute({ permission: 'admin:roles:read', summary: 'Read a role' }, RoleResponse, 'Role')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ role: RoleView }> {
    return { role: await this.reads.send(AuthAdminSubjects.getRole, principal, { uuid }) };
  }

  @UpdateRoute(
    {
      permission: 'admin:roles:update',
      summary: 'Rename a role or change its permissions',
      description:
        `New permissions end the tokens of every holder at once. ${HELD} Refused with 422 (errorKey ` +
        'last_super_admin) when it takes `*` from the last enabled users holding it.',
    },
    RoleResponse,
    'Role',
  )
  update(
    @CurrentCaller() caller: AdminCaller,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateRoleBody,
  ) {
    const payload = { uuid, changes: { ...body } };
    return this.changes.change<'role', RoleView>('role', AuthAdminSubjects.updateRole, caller, payload);
  }

  @DeleteRoute(
    {
      permission: 'admin:roles:delete',
      summary: 'Delete a role',
      description: `Refused with 422 (errorKey has_dependents) while users or live API keys have it. ${HELD}`,
    },
    'Role',
  )
  delete(@CurrentCaller() caller: AdminCaller, @Param('uuid', AssetUuidPipe) uuid: string) {
    return this.changes.remove(AuthAdminSubjects.deleteRole, caller, uuid);
  }
}
