import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CommandSubjects,
  type CreateCommandPayload,
  type CreatedCommand,
  IDEMPOTENCY_KEY_REUSED_ERROR_KEY,
  type Principal,
} from '@cpc/contracts';
import { namedQuery, TransactionalOutbox } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { countCreatedSql } from '../command-counts.js';
import {
  COMMAND_ROW_COLUMNS,
  type CommandRow,
  statusChangedEvent,
  toCommandView,
} from '../command-record.js';
import { CommandReader } from '../listing/command-reader.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';
import { CommandTargetResolver } from './command-target.resolver.js';
import {
  IDEMPOTENCY_KEY_PARAMETER,
  judgeCreateRequest,
  judgeIdempotencyKey,
} from './create-command-request.js';
import {
  claimKeySql,
  findLiveKey,
  requestFingerprint,
  type StoredIdempotencyKey,
} from './idempotency-keys.js';

/** errorKey on `target_uuid` when no such target exists for the caller's tenant. */
export const TARGET_NOT_FOUND_ERROR_KEY = 'not_found';

/**
 * Creates commands: judges the body, resolves the target for the caller's tenant, stores the command `pending` with
 * its first status event (one transaction), and wakes the dispatcher. With an Idempotency-Key, the key's first
 * request within its lifetime answers every repeat with the same body; a repeat with another body is refused.
 */
@Injectable()
export class CommandCreationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly targets: CommandTargetResolver,
    private readonly reader: CommandReader,
    private readonly outbox: TransactionalOutbox,
    private readonly dispatch: DispatchSignal,
  ) {}

  async create(principal: Principal, payload: CreateCommandPayload): Promise<CreatedCommand> {
    const tenantUuid = principal.tenantUuid;
    const key = payload.idempotencyKey;
    const keyIssues = judgeIdempotencyKey(key);
    const fingerprint = requestFingerprint(payload.body);
    // A repeat answers the first command even when its body would no longer pass (a reservation expiry now past).
    if (key !== undefined && keyIssues.length === 0) {
      const earlier = await findLiveKey(this.dataSource.manager, tenantUuid, key);
      if (earlier) return this.repeat(tenantUuid, earlier, fingerprint);
    }
    const judged = judgeCreateRequest(payload.body, new Date());
    const issues = [...(judged.ok ? [] : judged.issues), ...keyIssues];
    if (!judged.ok || issues.length > 0) throw new ValidationFailedError(issues);

    const { request } = judged;
    const resolved = await this.targets.resolve(principal, request.command.target_type, request.targetUuid);
    if (!resolved) {
      throw ValidationFailedError.single(
        'target_uuid',
        TARGET_NOT_FOUND_ERROR_KEY,
        `no ${request.command.target_type} ${request.targetUuid} exists`,
      );
    }

    const commandUuid = randomUUID();
    const command: CommandRow = {
      uuid: commandUuid,
      tenant_uuid: tenantUuid,
      controller_uuid: resolved.controllerUuid,
      type: request.command.type,
      target_type: request.command.target_type,
      target_uuid: request.targetUuid,
      status: 'pending',
      result: null,
      // A stand-in: the database sets created_at, in the row it returns and in the event (jsonb_set below).
      created_at: new Date(),
      completed_at: null,
    };
    const event = statusChangedEvent(command, null);
    // The key's claim, the command, its first status event (outbox) and its count in one statement, one round trip:
    // atomic as a transaction of them would be, without holding a connection across them. With a key held by
    // another request, nothing is written.
    const values = `$1, $2, $3, $4, $5, $6, $7, $8, 'pending',
                    clock_timestamp() + make_interval(secs => $9), clock_timestamp(), clock_timestamp()`;
    const claim =
      key === undefined
        ? undefined
        : claimKeySql({ tenantUuid: '$2', key: '$13', fingerprint: '$14', commandUuid: '$1' });
    const [row] = await namedQuery<CommandRow>(this.dataSource, {
      name: claim === undefined ? 'commands.create' : 'commands.create-with-key',
      text: `WITH ${claim === undefined ? '' : `claimed AS (${claim}),`} command AS (
         INSERT INTO control.commands
                (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status,
                 valid_until, created_at, next_attempt_at)
         ${claim === undefined ? `VALUES (${values})` : `SELECT ${values} WHERE EXISTS (SELECT FROM claimed)`}
         RETURNING ${COMMAND_ROW_COLUMNS}
       ), event AS (
         ${this.outbox.insertSql(`
           SELECT $10, tenant_uuid, $11,
                  jsonb_set($12::jsonb, '{data,command,created_at}',
                            to_jsonb(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))
             FROM command`)}
       ), counted AS (${countCreatedSql('command')})
       SELECT * FROM command`,
      values: [
        commandUuid,
        tenantUuid,
        command.type,
        command.target_type,
        command.target_uuid,
        command.controller_uuid,
        JSON.stringify(resolved.target),
        // Normalized (defaults filled in, date-times in UTC): the gateway builds the call from them.
        JSON.stringify(request.command.parameters),
        request.validForSeconds,
        event.eventId,
        CommandSubjects.statusChanged,
        JSON.stringify(event),
        ...(key === undefined ? [] : [key, fingerprint]),
      ],
    });
    if (!row) {
      // Only a key held by another request writes nothing: that request won; this one answers like any repeat.
      const earlier =
        key === undefined ? undefined : await findLiveKey(this.dataSource.manager, tenantUuid, key);
      if (!earlier) throw new Error(`idempotency key of ${commandUuid} vanished`);
      return this.repeat(tenantUuid, earlier, fingerprint);
    }
    void this.outbox.flush();
    this.dispatch.notify();
    return { command: toCommandView(row), created: true };
  }

  private async repeat(
    tenantUuid: string,
    earlier: StoredIdempotencyKey,
    fingerprint: string,
  ): Promise<CreatedCommand> {
    if (earlier.request_fingerprint !== fingerprint) {
      throw ValidationFailedError.single(
        IDEMPOTENCY_KEY_PARAMETER,
        IDEMPOTENCY_KEY_REUSED_ERROR_KEY,
        'this Idempotency-Key was used for a different request within the last 24 hours',
      );
    }
    return { command: await this.reader.get(tenantUuid, earlier.command_uuid), created: false };
  }
}
