import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ErrorCode, type Principal } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { permissionGranted } from './permission-grants.js';
import { RouteAccess } from './route-access.js';

/** Deny by default: a non-public route that declares no permission is refused like a missing permission. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly routes: RouteAccess) {}

  canActivate(context: ExecutionContext): boolean {
    const { isPublic, permission: required } = this.routes.of(context);
    if (isPublic) return true;
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!required || !principal || !permissionGranted(principal.scopes, required)) {
      throw new DomainError(ErrorCode.Forbidden, required ? `missing permission ${required}` : 'forbidden');
    }
    return true;
  }
}
