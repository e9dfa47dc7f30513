import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, type Principal } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { permissionGranted } from './permission-grants.js';
import { IS_PUBLIC } from './public.decorator.js';
import { REQUIRED_PERMISSION } from './require-permission.decorator.js';

/** Deny by default: a non-public route that declares no permission is refused like a missing permission. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const required = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_PERMISSION, targets);
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!required || !principal || !permissionGranted(principal.scopes, required)) {
      throw new DomainError(ErrorCode.Forbidden, required ? `missing permission ${required}` : 'forbidden');
    }
    return true;
  }
}
