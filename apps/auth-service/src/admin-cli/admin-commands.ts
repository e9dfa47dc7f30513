import { type INestApplicationContext, Logger } from '@nestjs/common';
import { AuthSubjects } from '@cpc/contracts';
import { MAX_PAGE_SIZE } from '@cpc/pagination';
import { AUTH_CONFIG } from '../auth-config.token.js';
import type { AuthServiceConfig } from '../auth-service.config.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { RolesService, toRoleView } from '../roles/roles.service.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import type { TenantEntity } from '../tenants/tenant.entity.js';
import { TenantsService, toResolvedTenant, toTenantView } from '../tenants/tenants.service.js';
import { UsersService } from '../users/users.service.js';
import {
  type AdminArguments,
  AdminUsageError,
  booleanFlag,
  optionalFlag,
  requiredFlag,
} from './admin-arguments.js';
import { PASSWORD_USAGE } from './admin-password-input.js';
import { announceOverNats } from './cli-nats-announcement.js';

/** What a command reads besides its flags; secrets never come from the flags alone (admin-password-input). */
export interface AdminInput {
  password(): Promise<string>;
}

type AdminCommand = {
  usage: string;
  run: (app: INestApplicationContext, args: AdminArguments, input: AdminInput) => Promise<object>;
};

/** Tells every ocpp-gateway at once what it resolves of the tenant now; their tenant cache expiry otherwise. */
async function announceTenantSettings(app: INestApplicationContext, tenant: TenantEntity): Promise<object> {
  await announceOverNats(
    app.get<AuthServiceConfig>(AUTH_CONFIG),
    AuthSubjects.tenantSettingsChanged,
    toResolvedTenant(tenant),
    new Logger('admin'),
    'ocpp-gateways see it when their tenant cache expires (OCPP_TENANT_CACHE_TTL_MS)',
  );
  return toTenantView(tenant);
}

const list = (value: string) => value.split(',').map((item) => item.trim());

/** The management console of the spec: every command prints one JSON object. */
export const ADMIN_COMMANDS: Record<string, AdminCommand> = {
  'tenant:create': {
    usage: '--slug <slug> [--name <name>] [--uuid <uuid>] [--default-context <context>]',
    run: async (app, args) =>
      toTenantView(
        await app.get(TenantsService).create({
          slug: requiredFlag(args, 'slug'),
          name: optionalFlag(args, 'name'),
          uuid: optionalFlag(args, 'uuid'),
          defaultContext: optionalFlag(args, 'default-context'),
        }),
      ),
  },
  'tenant:list': {
    usage: '',
    run: async (app) => ({ tenants: (await app.get(TenantsService).list()).map(toTenantView) }),
  },
  'tenant:disable': {
    usage: '--slug <slug>',
    run: async (app, args) =>
      toTenantView(await app.get(TenantsService).setDisabled(requiredFlag(args, 'slug'), true)),
  },
  'tenant:enable': {
    usage: '--slug <slug>',
    run: async (app, args) =>
      toTenantView(await app.get(TenantsService).setDisabled(requiredFlag(args, 'slug'), false)),
  },
  'tenant:show': {
    usage: '--slug <slug>',
    run: async (app, args) =>
      toTenantView(await app.get(TenantsService).getBySlug(requiredFlag(args, 'slug'))),
  },
  'tenant:set-profile-0': {
    usage: '--slug <slug> --allowed <true|false>',
    run: async (app, args) =>
      announceTenantSettings(
        app,
        await app
          .get(TenantsService)
          .setSecurityProfile0Allowed(requiredFlag(args, 'slug'), booleanFlag(args, 'allowed')),
      ),
  },
  'tenant:set-authorization-mode': {
    usage: '--slug <slug> --mode <strict|accept_unknown>',
    run: async (app, args) =>
      announceTenantSettings(
        app,
        await app
          .get(TenantsService)
          .setAuthorizationMode(requiredFlag(args, 'slug'), requiredFlag(args, 'mode')),
      ),
  },
  'role:create': {
    usage: '--tenant <slug> --name <role> --permissions <p1,p2,...>',
    run: (app, args) =>
      app
        .get(RolesService)
        .create(
          requiredFlag(args, 'tenant'),
          requiredFlag(args, 'name'),
          list(requiredFlag(args, 'permissions')),
        ),
  },
  'role:list': {
    usage: '--tenant <slug>',
    run: async (app, args) => ({
      roles: (await app.get(RolesService).list(requiredFlag(args, 'tenant'))).map(toRoleView),
    }),
  },
  'role:set-permissions': {
    usage: '--tenant <slug> --name <role> --permissions <p1,p2,...>',
    run: (app, args) =>
      app
        .get(RolesService)
        .setPermissions(
          requiredFlag(args, 'tenant'),
          requiredFlag(args, 'name'),
          list(requiredFlag(args, 'permissions')),
        ),
  },
  'user:create': {
    usage: `--tenant <slug> --email <email> ${PASSWORD_USAGE} --role <role> [--entity-type <type>]`,
    run: async (app, args, input) => {
      const user = await app.get(UsersService).create({
        tenantSlug: requiredFlag(args, 'tenant'),
        email: requiredFlag(args, 'email'),
        password: await input.password(),
        roleName: requiredFlag(args, 'role'),
        entityType: optionalFlag(args, 'entity-type'),
      });
      return { uuid: user.uuid, email: user.email, entity_type: user.entity_type, role: user.role };
    },
  },
  'user:list': {
    usage: '--tenant <slug>',
    run: async (app, args) => ({ users: await app.get(UsersService).list(requiredFlag(args, 'tenant')) }),
  },
  'user:disable': {
    usage: '--tenant <slug> --email <email>',
    run: (app, args) =>
      app
        .get(UsersService)
        .update(requiredFlag(args, 'tenant'), requiredFlag(args, 'email'), { disabled: true }),
  },
  'user:enable': {
    usage: '--tenant <slug> --email <email>',
    run: (app, args) =>
      app
        .get(UsersService)
        .update(requiredFlag(args, 'tenant'), requiredFlag(args, 'email'), { disabled: false }),
  },
  'user:set-role': {
    usage: '--tenant <slug> --email <email> --role <role>',
    run: (app, args) =>
      app.get(UsersService).update(requiredFlag(args, 'tenant'), requiredFlag(args, 'email'), {
        roleName: requiredFlag(args, 'role'),
      }),
  },
  'user:set-password': {
    usage: `--tenant <slug> --email <email> ${PASSWORD_USAGE}`,
    run: async (app, args, input) =>
      app.get(UsersService).update(requiredFlag(args, 'tenant'), requiredFlag(args, 'email'), {
        password: await input.password(),
      }),
  },
  'apikey:create': {
    usage: '--tenant <slug> --role <role> [--name <name>]',
    run: (app, args) =>
      app
        .get(ApiKeysService)
        .create(requiredFlag(args, 'tenant'), requiredFlag(args, 'role'), optionalFlag(args, 'name')),
  },
  'apikey:list': {
    usage: '--tenant <slug>',
    run: async (app, args) => ({
      api_keys: await app.get(ApiKeysService).list(requiredFlag(args, 'tenant')),
    }),
  },
  'apikey:revoke': {
    usage: '--tenant <slug> --public-key <key>',
    run: (app, args) =>
      app
        .get(ApiKeysService)
        .update(requiredFlag(args, 'tenant'), requiredFlag(args, 'public-key'), { revoked: true }),
  },
  'apikey:set-role': {
    usage: '--tenant <slug> --public-key <key> --role <role>',
    run: (app, args) =>
      app.get(ApiKeysService).update(requiredFlag(args, 'tenant'), requiredFlag(args, 'public-key'), {
        roleName: requiredFlag(args, 'role'),
      }),
  },
  'audit:list': {
    usage: '--tenant <slug> [--page <n>]',
    run: async (app, args) => {
      const tenant = await app.get(TenantsService).getBySlug(requiredFlag(args, 'tenant'));
      const page = Number(optionalFlag(args, 'page') ?? '1');
      if (!Number.isSafeInteger(page) || page < 1)
        throw new AdminUsageError('--page must be a whole number from 1');
      const { items, pagination } = await app
        .get(AuditLog)
        .page(tenant.uuid, { page, limit: MAX_PAGE_SIZE, filter: {} });
      return { audit_events: items, pagination };
    },
  },
  'key:rotate': { usage: '', run: (app) => app.get(SigningKeysService).rotate() },
  'key:list': { usage: '', run: async (app) => ({ keys: await app.get(SigningKeysService).list() }) },
  'key:revoke': {
    usage: '--kid <kid>',
    run: (app, args) => app.get(SigningKeysService).revoke(requiredFlag(args, 'kid')),
  },
};

export function adminUsage(): string {
  return [
    'usage: npm run admin -- <command> [flags]',
    '',
    ...Object.entries(ADMIN_COMMANDS).map(([name, command]) => `  ${name} ${command.usage}`),
  ].join('\n');
}

export function findAdminCommand(name: string): AdminCommand {
  const command = ADMIN_COMMANDS[name];
  if (!command) throw new AdminUsageError(`unknown command "${name}"`);
  return command;
}
