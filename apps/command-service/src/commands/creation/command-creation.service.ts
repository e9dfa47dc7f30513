import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type CreateCommandPayload,
  type CreatedCommand,
  IDEMPOTENCY_KEY_REUSED_ERROR_KEY,
  type Principal,
} from '@cpc/contracts';
import { TransactionalOutbox } from '@cpc/database';
import { activeTraceparent } from '@cpc/tracing';
import { ValidationFailedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { statusChangedEvent, toCommandView } from '../command-record.js';
import type { CommandRow } from '../command-row.js';
import { CommandReader } from '../listing/command-reader.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';
import { CommandInserts, type NewCommand } from './command-inserts.js';
import { CommandTargetResolver } from './command-target.resolver.js';
import { LocalListTokens } from './local-list-tokens.js';
import { SettingLimits } from './setting-limits.js';
import {
  IDEMPOTENCY_KEY_PARAMETER,
  judgeCreateRequest,
  judgeIdempotencyKey,
} from './create-command-request.js';
import type { StoredIdempotencyKey } from '../../repositories/idempotency-keys.repository.js';
import { findLiveKey, requestFingerprint } from './idempotency-keys.js';

/** errorKey on `target_uuid` when no such target exists for the caller's tenant. */
export const TARGET_NOT_FOUND_ERROR_KEY = 'not_found';

/**
 * Creates commands: judges the body, resolves the target for the caller's tenant, stores the command `pending` with
 * its first status event (one transaction), and wakes the dispatcher unless it was stored leased to it (its charge
 * point had no other open command), in which case its delivery has begun. With an Idempotency-Key, the key's first
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
    private readonly inserts: CommandInserts,
    private readonly settingLimits: SettingLimits,
    private readonly localListTokens: LocalListTokens,
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
    if (request.command.type === 'change_configuration') {
      const tooMany = await this.settingLimits.check(
        principal,
        resolved.controllerUuid,
        request.command.parameters,
      );
      if (tooMany.length > 0) throw new ValidationFailedError(tooMany);
    }
    if (request.command.type === 'send_local_list') {
      const unknown = await this.localListTokens.check(principal, request.command.parameters);
      if (unknown.length > 0) throw new ValidationFailedError(unknown);
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
      // A stand-in: the database sets created_at, in the row it returns and in the event.
      created_at: new Date(),
      completed_at: null,
    };
    const event = statusChangedEvent(command, null);
    const stored: NewCommand = {
      uuid: commandUuid,
      tenantUuid,
      type: command.type,
      targetType: command.target_type,
      targetUuid: command.target_uuid,
      controllerUuid: command.controller_uuid,
      target: JSON.stringify(resolved.target),
      // Normalized (defaults filled in, date-times in UTC): the gateway builds the call from them.
      parameters: JSON.stringify(request.command.parameters),
      validForSeconds: request.validForSeconds,
      eventId: event.eventId,
      event: JSON.stringify(event),
      // Its delivery continues the request's trace (CommandDispatcher), on any instance and after any restart.
      traceparent: activeTraceparent() ?? null,
    };
    // The command, its first status event (outbox) and its count in one statement, with the key's claim when there
    // is a key: atomic as a transaction of them would be. With a key held by another request, nothing is written.
    const row =
      key === undefined
        ? await this.inserts.insert(stored)
        : await this.inserts.insertClaimingKey(stored, key, fingerprint);
    if (!row) {
      // Only a key held by another request writes nothing: that request won; this one answers like any repeat.
      const earlier =
        key === undefined ? undefined : await findLiveKey(this.dataSource.manager, tenantUuid, key);
      if (!earlier) throw new Error(`idempotency key of ${commandUuid} vanished`);
      return this.repeat(tenantUuid, earlier, fingerprint);
    }
    void this.outbox.flush();
    // Stored leased, it is being delivered already (CommandInserts); otherwise it waits behind an open command.
    if (!row.leased) this.dispatch.createdBehind(row.controller_uuid);
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
