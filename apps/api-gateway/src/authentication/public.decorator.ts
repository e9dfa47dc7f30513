import { SetMetadata } from '@nestjs/common';
import { PUBLIC_ROUTE } from '@cpc/health';

/** The metadata key is shared with the health endpoints, which are public in every service. */
export const IS_PUBLIC = PUBLIC_ROUTE;

/** Opts a route out of the bearer-token guard; every other route requires a valid token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
