import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '@cpc/contracts';

/** The caller as the verified access token says; the only source of the tenant a request acts in. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<{ user: Principal }>().user,
);
