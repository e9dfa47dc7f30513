import { randomUUID } from 'node:crypto';
import { CommandSubjects } from '@cpc/contracts';
import type { DataSource } from 'typeorm';
import { applyCommandTransitions } from '../../repositories/commands.repository.js';

/** A backlog of open commands, as insertOpenBacklog leaves it. */
export interface OpenBacklog {
  /** The charge points (lanes), in the order their commands were made. */
  controllers: string[];
  /** The head of every other lane, leased to another instance (being delivered). */
  busyHeads: string[];
}

/** Inserts commands with every column given, from a SELECT over `values`. */
export function insertCommands(dataSource: DataSource, select: string, values: unknown[]): Promise<unknown> {
  return dataSource.query(
    `INSERT INTO control.commands
       (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status, result,
        valid_until, created_at, sent_at, completed_at, next_attempt_at, lease_owner, lease_until, attempts)
     ${select}`,
    values,
  );
}

/**
 * `lanes` charge points with `openPerLane` open commands each, the first half due, the rest waiting for a later time,
 * and the head of every other lane leased to another instance: what a claim and a batch of endings face under load.
 */
export async function insertOpenBacklog(
  dataSource: DataSource,
  tenant: string,
  lanes: number,
  openPerLane: number,
  controllers: string[] = Array.from({ length: lanes }, () => randomUUID()),
): Promise<OpenBacklog> {
  await insertCommands(
    dataSource,
    `SELECT gen_random_uuid(), $1, 'remote_start', 'controller', lane, lane, '{"targetType":"controller"}', '{}',
            'pending', NULL, now() + interval '1 hour', now() + i * interval '1 millisecond', NULL, NULL,
            CASE WHEN i % ${openPerLane} < ${openPerLane / 2} THEN now() - interval '1 second'
                 ELSE now() + interval '1 hour' END,
            NULL, NULL, 0
       FROM generate_series(0, ${lanes * openPerLane - 1}) AS i,
            LATERAL (SELECT ($2::uuid[])[1 + i / ${openPerLane}] AS lane) l`,
    [tenant, controllers],
  );
  // An UPDATE … RETURNING comes back from TypeORM as [rows, count].
  const [heads] = await dataSource.query<[{ uuid: string }[], number]>(
    `UPDATE control.commands SET lease_owner = 'another instance', lease_until = now() + interval '1 minute'
      WHERE uuid IN (SELECT DISTINCT ON (controller_uuid) uuid FROM control.commands
                      WHERE controller_uuid = ANY($1) AND completed_at IS NULL
                      ORDER BY controller_uuid, created_at, uuid)
      RETURNING uuid`,
    [controllers.filter((_, index) => index % 2 === 0)],
  );
  return { controllers, busyHeads: heads.map((row) => row.uuid) };
}

/** The batch of transitions that ends `batch` (sent and accepted at once), handing their lanes over to this instance. */
export function acceptedBatch(batch: string[]) {
  return applyCommandTransitions.query({
    uuids: batch,
    wantsSent: batch.map(() => true),
    sentAts: batch.map(() => null),
    endings: batch.map(() => 'accepted'),
    results: batch.map(() => JSON.stringify({ status: 'Accepted' })),
    responses: batch.map(() => JSON.stringify({ status: 'Accepted' })),
    reporterTenantUuids: batch.map(() => null),
    reporterControllerUuids: batch.map(() => null),
    sentEventIds: batch.map(() => randomUUID()),
    endingEventIds: batch.map(() => randomUUID()),
    subject: CommandSubjects.statusChanged,
    leaseOwner: 'this instance',
    leaseMs: 30_000,
    leaseLimit: 100,
    countSlot: 0,
  });
}
