import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';

export const REQUIRED_PERMISSION = 'cpc:required-permission';

/** The permission (`area:resource:action`) a route needs; a route without one (and not @Public) is refused. */
export const RequirePermission = (permission: string) =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiBearerAuth('bearer'),
    ApiExtension('x-required-permission', permission),
  );
