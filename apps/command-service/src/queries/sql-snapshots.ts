import type { RepositoryStatements, ServiceSqlSnapshots } from '@cpc/database';
import { CHARGING_SESSIONS_STATEMENTS } from '../repositories/charging-sessions.repository.js';
import { COMMAND_COUNTS_STATEMENTS } from '../repositories/command-counts.repository.js';
import { COMMANDS_STATEMENTS } from '../repositories/commands.repository.js';
import { IDEMPOTENCY_KEYS_STATEMENTS } from '../repositories/idempotency-keys.repository.js';
import { METER_VALUE_PARTITIONS_STATEMENTS } from '../repositories/meter-value-partitions.repository.js';
import { METER_VALUES_STATEMENTS } from '../repositories/meter-values.repository.js';
import { RESERVATIONS_STATEMENTS } from '../repositories/reservations.repository.js';

const repository = (name: string, statements: RepositoryStatements['statements']): RepositoryStatements => ({
  repository: name,
  source: `apps/command-service/src/repositories/${name}.repository.ts`,
  statements,
});

/** Every statement of command-service, a snapshot per repository. */
export const COMMAND_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'command-service',
  directory: 'apps/command-service/src/queries',
  repositories: [
    repository('commands', COMMANDS_STATEMENTS),
    repository('command-counts', COMMAND_COUNTS_STATEMENTS),
    repository('idempotency-keys', IDEMPOTENCY_KEYS_STATEMENTS),
    repository('charging-sessions', CHARGING_SESSIONS_STATEMENTS),
    repository('meter-values', METER_VALUES_STATEMENTS),
    repository('meter-value-partitions', METER_VALUE_PARTITIONS_STATEMENTS),
    repository('reservations', RESERVATIONS_STATEMENTS),
  ],
};
