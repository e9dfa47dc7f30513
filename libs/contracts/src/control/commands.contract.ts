import type { ListPagination, SortDirection } from '../assets/asset-list.contract.js';
import type { EventEnvelope } from '../events/event-stream.js';
import type { ConfigurationSettingResult } from '../ocpp-gateway/ocpp-call.contract.js';

/**
 * Commands: control instructions to a controller, a connector (plug) or a charging session, kept and delivered by
 * command-service (schema `control`). Request/reply subjects take a `TenantScopedRequest<payload>`; another tenant's
 * command answers not_found like a missing one. Type, target type and status values are those of
 * `@cpc/ocpp-commands` (COMMAND_TYPES, TARGET_TYPES, COMMAND_STATUSES).
 */
export const CommandSubjects = {
  /**
   * CreateCommandPayload → CreatedCommand. validation_failed with one issue per problem of the body (parameter =
   * the field's path), of the target (`target_uuid`: unknown for this tenant) and of the idempotency key
   * (`Idempotency-Key`: malformed, or reused with another body).
   */
  create: 'control.command.create.v1',
  /** ListCommandsPayload → CommandPage */
  list: 'control.command.list.v1',
  /** GetCommandPayload → CommandView */
  get: 'control.command.get.v1',
  /** durable event: CommandStatusChangedEvent, one per status a command takes (`pending` at creation included). */
  statusChanged: 'events.control.command-status-changed.v1',
} as const;

/** errorKey on `Idempotency-Key` when the key was used within its lifetime for a different body. */
export const IDEMPOTENCY_KEY_REUSED_ERROR_KEY = 'idempotency_key_reused';

export interface CreateCommandPayload {
  /** The HTTP body exactly as received (any JSON value); command-service judges all of it. */
  body: unknown;
  /** The `Idempotency-Key` header, absent when none was sent. */
  idempotencyKey?: string;
}

export interface CreatedCommand {
  command: CommandView;
  /** False when an earlier request with the same idempotency key and body created it (nothing new happens). */
  created: boolean;
}

export const COMMAND_SORT_FIELDS = ['created_at'] as const;
export type CommandSortField = (typeof COMMAND_SORT_FIELDS)[number];

export interface CommandFilter {
  target_type?: string;
  target_uuid?: string;
  type?: string;
  status?: string;
}

export interface ListCommandsPayload {
  page: number;
  limit: number;
  /** In priority order; default newest first. The service breaks ties by command uuid. */
  orderBy: { field: CommandSortField; direction: SortDirection }[];
  filter: CommandFilter;
  /** Optional parts of each command to include: `response` adds the charge point's answer (`result.response`). */
  include?: CommandListInclude[];
  /** Read by cursor (keyset) instead of by page number. */
  cursor?: string;
}

export const COMMAND_LIST_INCLUDES = ['response'] as const;
export type CommandListInclude = (typeof COMMAND_LIST_INCLUDES)[number];

export interface GetCommandPayload {
  uuid: string;
}

/**
 * `result` is null while `pending` or `sent`; once terminal it holds `status` (the charge point's status string, or a
 * documented stand-in) when the charge point answered, `error` (a `@cpc/ocpp-commands` CommandResultError key) when
 * the command failed, neither for a `timeout`.
 */
export interface CommandResult {
  status?: string;
  error?: string;
  /**
   * The charge point's answer exactly as received (the OCPP reply payload; for a command of several calls, see its
   * type). Only on a command read, or a list with `include=response`; never in status events.
   */
  response?: unknown;
  /** change_configuration: each setting sent with the charge point's status for it, in order. */
  settings?: ConfigurationSettingResult[];
  /** Size in bytes of an answer too large to keep (COMMAND_SERVICE_TUNING.maxStoredResponseBytes); then no `response`. */
  response_omitted_bytes?: number;
}

/** The spec's Command. Date-times are ISO 8601 UTC with seconds precision and `Z`. */
export interface CommandView {
  command_uuid: string;
  target_type: string;
  target_uuid: string;
  type: string;
  status: string;
  result: CommandResult | null;
  created_at: string;
  completed_at: string | null;
}

export interface CommandPage {
  items: CommandView[];
  pagination: ListPagination;
}

/** A command took a new status; `previousStatus` is null at creation. */
export type CommandStatusChangedEvent = EventEnvelope<{
  command: CommandView;
  previousStatus: string | null;
  /** The controller (charge point) the command is delivered to. */
  controllerUuid: string;
}>;
