import type { RepositoryStatements, ServiceSqlSnapshots } from '@cpc/database';
import { DELIVERIES_STATEMENTS } from '../repositories/deliveries.repository.js';
import { PARKED_EVENTS_STATEMENTS } from '../repositories/parked-events.repository.js';
import { SUBSCRIPTIONS_STATEMENTS } from '../repositories/subscriptions.repository.js';

const repository = (name: string, statements: RepositoryStatements['statements']): RepositoryStatements => ({
  repository: name,
  source: `apps/webhook-service/src/repositories/${name}.repository.ts`,
  statements,
});

/** Every statement of webhook-service, a snapshot per repository. */
export const WEBHOOK_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'webhook-service',
  directory: 'apps/webhook-service/src/queries',
  repositories: [
    repository('subscriptions', SUBSCRIPTIONS_STATEMENTS),
    repository('deliveries', DELIVERIES_STATEMENTS),
    repository('parked-events', PARKED_EVENTS_STATEMENTS),
  ],
};
