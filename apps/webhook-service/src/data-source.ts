import { createServiceDataSource, type ServiceDataSourceOptions } from '@cpc/database';
import type { DataSource } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhook-service.config.js';
import { CreateWebhooksSchema1796000000000 } from './migrations/1796000000000-create-webhooks-schema.js';
import { CreateParkedEvents1796100000000 } from './migrations/1796100000000-create-parked-events.js';
import { IndexDueDeliveriesPerSubscription1796200000000 } from './migrations/1796200000000-index-due-deliveries-per-subscription.js';
import { IndexDeliveryQueuesByKey1796300000000 } from './migrations/1796300000000-index-delivery-queues-by-key.js';
import { LeaseDeliveriesApart1796400000000 } from './migrations/1796400000000-lease-deliveries-apart.js';
import { NoStatisticsForBodies1796500000000 } from './migrations/1796500000000-no-statistics-for-bodies.js';
import { SmallStatisticsSampleForDeliveries1796600000000 } from './migrations/1796600000000-small-statistics-sample-for-deliveries.js';
import { QueueIndexApartFromDueIndex1796700000000 } from './migrations/1796700000000-queue-index-apart-from-due-index.js';

/** Every migration of the webhooks schema, in order; listed explicitly, never globbed. */
export const WEBHOOKS_MIGRATIONS = [
  CreateWebhooksSchema1796000000000,
  CreateParkedEvents1796100000000,
  IndexDueDeliveriesPerSubscription1796200000000,
  IndexDeliveryQueuesByKey1796300000000,
  LeaseDeliveriesApart1796400000000,
  NoStatisticsForBodies1796500000000,
  SmallStatisticsSampleForDeliveries1796600000000,
  QueueIndexApartFromDueIndex1796700000000,
];

/** No entities: every statement is written out in src/repositories. */
export function webhooksDataSourceOptions(databaseUrl: string): ServiceDataSourceOptions {
  return { url: databaseUrl, schema: WEBHOOKS_SCHEMA, entities: [], migrations: WEBHOOKS_MIGRATIONS };
}

export function createWebhooksDataSource(databaseUrl: string): DataSource {
  return createServiceDataSource(webhooksDataSourceOptions(databaseUrl));
}
