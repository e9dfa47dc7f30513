import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthAdminSubjects, type Principal, type UserView } from '@cpc/contracts';
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
  CreateUserBody,
  UpdateUserBody,
  USER_FILTER_DOCS,
  UserListQuery,
  UserListResponse,
  UserResponse,
} from './admin.dto.js';

const LAST_SUPER_ADMIN =
  'Refused with 422 (errorKey last_super_admin) when it would leave the tenant without an enabled user holding `*`.';
const HELD = 'The caller must hold every permission of the user’s role, and of a role it gives (else 403).';

/** The tenant's users (auth-service): its staff and the other accounts that sign in with a password. */
@ApiTags('admin: users')
@Controller('admin/users')
export class UsersController {
  constructor(
    private readonly reads: AssetRequests,
    private readonly changes: AdminRequests,
  ) {}

  @CreateRoute(
    {
      permission: 'admin:users:create',
      summary: 'Create a user',
      description: `The password is never returned. ${HELD}`,
    },
    UserResponse,
  )
  create(@CurrentCaller() caller: AdminCaller, @Body() body: CreateUserBody) {
    return this.changes.change<'user', UserView>('user', AuthAdminSubjects.createUser, caller, { ...body });
  }

  @ListRoute({ permission: 'admin:users:list', summary: 'List users' }, UserListResponse, USER_FILTER_DOCS)
  list(@CurrentPrincipal() principal: Principal, @Query() query: UserListQuery) {
    return this.reads.list<UserView, 'users'>(
      AuthAdminSubjects.listUsers,
      principal,
      toListPayload(query),
      'users',
    );
  }

  @ReadRoute({ permission: 'admin:users:read', summary: 'Read a user' }, UserResponse, 'User')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid', AssetUuidPipe) uuid: string,
  ): Promise<{ user: UserView }> {
    return { user: await this.reads.send(AuthAdminSubjects.getUser, principal, { uuid }) };
  }

  @UpdateRoute(
    {
      permission: 'admin:users:update',
      summary: 'Change a user: e-mail, password, role, disabled',
      description: `A new password, another role or a disable ends the user’s tokens at once. ${HELD} ${LAST_SUPER_ADMIN}`,
    },
    UserResponse,
    'User',
  )
  update(
    @CurrentCaller() caller: AdminCaller,
    @Param('uuid', AssetUuidPipe) uuid: string,
    @Body() body: UpdateUserBody,
  ) {
    const payload = { uuid, changes: { ...body } };
    return this.changes.change<'user', UserView>('user', AuthAdminSubjects.updateUser, caller, payload);
  }

  @DeleteRoute(
    {
      permission: 'admin:users:delete',
      summary: 'Delete a user',
      description: `Its tokens end at once. ${HELD} ${LAST_SUPER_ADMIN}`,
    },
    'User',
  )
  delete(@CurrentCaller() caller: AdminCaller, @Param('uuid', AssetUuidPipe) uuid: string) {
    return this.changes.remove(AuthAdminSubjects.deleteUser, caller, uuid);
  }
}
