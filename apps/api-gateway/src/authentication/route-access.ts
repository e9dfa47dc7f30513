import { type ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from './public.decorator.js';
import { REQUIRED_PERMISSION } from './require-permission.decorator.js';

export interface RouteAccessRules {
  isPublic: boolean;
  /** The permission the route requires; none on a non-public route means nobody may call it. */
  permission: string | undefined;
}

/**
 * What the guards need to know of a route (@Public, @RequirePermission), read from its metadata once per route
 * rather than on every request: decorators are fixed when the class is defined.
 */
@Injectable()
export class RouteAccess {
  private readonly byClass = new WeakMap<Type, Map<unknown, RouteAccessRules>>();

  constructor(private readonly reflector: Reflector) {}

  of(context: ExecutionContext): RouteAccessRules {
    const controller = context.getClass();
    const handler = context.getHandler();
    let rules = this.byClass.get(controller);
    if (!rules) this.byClass.set(controller, (rules = new Map<unknown, RouteAccessRules>()));
    let access = rules.get(handler);
    if (!access) {
      const targets = [handler, controller];
      access = {
        isPublic: this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
        permission: this.reflector.getAllAndOverride<string | undefined>(REQUIRED_PERMISSION, targets),
      };
      rules.set(handler, access);
    }
    return access;
  }
}
