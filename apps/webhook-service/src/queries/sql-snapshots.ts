import type { ServiceSqlSnapshots } from '@cpc/database';
import { DELIVERIES_STATEMENTS } from '../repositories/deliveries.repository.js';
import { PARKED_EVENTS_STATEMENTS } from '../repositories/parked-events.repository.js';
import { SUBSCRIPTIONS_STATEMENTS } from '../repositories/subscriptions.repository.js';

/** Every statement of webhook-service, a snapshot per repository. */
export const WEBHOOK_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'webhook-service',
  repositories: {
    'repositories/subscriptions': SUBSCRIPTIONS_STATEMENTS,
    'repositories/deliveries': DELIVERIES_STATEMENTS,
    'repositories/parked-events': PARKED_EVENTS_STATEMENTS,
  },
};
