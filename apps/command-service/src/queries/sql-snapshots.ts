import type { ServiceSqlSnapshots } from '@cpc/database';
import { CHARGING_SESSIONS_STATEMENTS } from '../repositories/charging-sessions.repository.js';
import { COMMAND_COUNTS_STATEMENTS } from '../repositories/command-counts.repository.js';
import { COMMANDS_STATEMENTS } from '../repositories/commands.repository.js';
import { IDEMPOTENCY_KEYS_STATEMENTS } from '../repositories/idempotency-keys.repository.js';
import { METER_VALUE_PARTITIONS_STATEMENTS } from '../repositories/meter-value-partitions.repository.js';
import { METER_VALUES_STATEMENTS } from '../repositories/meter-values.repository.js';
import { RESERVATIONS_STATEMENTS } from '../repositories/reservations.repository.js';

/** Every statement of command-service, a snapshot per repository. */
export const COMMAND_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'command-service',
  repositories: {
    'repositories/commands': COMMANDS_STATEMENTS,
    'repositories/command-counts': COMMAND_COUNTS_STATEMENTS,
    'repositories/idempotency-keys': IDEMPOTENCY_KEYS_STATEMENTS,
    'repositories/charging-sessions': CHARGING_SESSIONS_STATEMENTS,
    'repositories/meter-values': METER_VALUES_STATEMENTS,
    'repositories/meter-value-partitions': METER_VALUE_PARTITIONS_STATEMENTS,
    'repositories/reservations': RESERVATIONS_STATEMENTS,
  },
};
