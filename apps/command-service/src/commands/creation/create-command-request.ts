import { invalidUuidIssue, UUID_PATTERN, type ValidationIssue } from '@cpc/contracts';
import {
  CommandValidationErrorKey as ErrorKey,
  parseCommandRequest,
  type TargetType,
  type ValidCommandRequest,
} from '@cpc/ocpp-commands';

/** Longest validity a command may ask for: one day. */
export const MAX_VALID_FOR_SECONDS = 86_400;
/** Visible ASCII, as HTTP header values commonly carry idempotency keys (UUIDs, ULIDs, hashes). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const BODY_FIELDS = new Set(['type', 'target_type', 'target_uuid', 'parameters', 'valid_for_seconds']);

export const IDEMPOTENCY_KEY_PARAMETER = 'Idempotency-Key';

/** A create request that passed every check that needs no look-up. */
export interface CreateCommandRequest {
  command: ValidCommandRequest & { target_type: TargetType };
  targetUuid: string;
  validForSeconds: number;
}

export type JudgedCreateRequest =
  { ok: true; request: CreateCommandRequest } | { ok: false; issues: ValidationIssue[] };

const issue = (parameter: string, errorKey: string, message: string): ValidationIssue => ({
  errorKey,
  message,
  parameter,
});

/** The Idempotency-Key header: absent, or 1 to 255 visible ASCII characters. */
export function judgeIdempotencyKey(key: unknown): ValidationIssue[] {
  if (key === undefined) return [];
  return typeof key === 'string' && IDEMPOTENCY_KEY_PATTERN.test(key)
    ? []
    : [
        issue(
          IDEMPOTENCY_KEY_PARAMETER,
          ErrorKey.InvalidValue,
          'Idempotency-Key must be 1 to 255 visible ASCII characters',
        ),
      ];
}

/**
 * Every problem of a create body at once: its shape, unknown fields, target_uuid, valid_for_seconds, and type,
 * target_type and parameters by the shared command mapping (@cpc/ocpp-commands). `null` counts as absent, as there.
 */
export function judgeCreateRequest(body: unknown, now: Date): JudgedCreateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, issues: [issue('body', ErrorKey.InvalidType, 'the body must be a JSON object')] };
  }
  const fields = body as Record<string, unknown>;
  const issues: ValidationIssue[] = Object.keys(fields)
    .filter((field) => !BODY_FIELDS.has(field))
    .map((field) => issue(field, ErrorKey.UnknownField, `${field} is not a known field`));

  const parsed = parseCommandRequest(
    { type: fields.type, target_type: fields.target_type, parameters: fields.parameters },
    { now },
  );
  issues.push(...parsed.issues);

  const targetUuid = fields.target_uuid;
  if (targetUuid === undefined || targetUuid === null) {
    issues.push(issue('target_uuid', ErrorKey.Required, 'target_uuid is required'));
  } else if (typeof targetUuid !== 'string') {
    issues.push(issue('target_uuid', ErrorKey.InvalidType, 'target_uuid must be a string'));
  } else if (!UUID_PATTERN.test(targetUuid)) {
    issues.push(invalidUuidIssue('target_uuid'));
  }

  const validFor = fields.valid_for_seconds ?? 0;
  if (typeof validFor !== 'number' || !Number.isInteger(validFor)) {
    issues.push(issue('valid_for_seconds', ErrorKey.InvalidType, 'valid_for_seconds must be an integer'));
  } else if (validFor < 0 || validFor > MAX_VALID_FOR_SECONDS) {
    issues.push(
      issue(
        'valid_for_seconds',
        ErrorKey.OutOfRange,
        `valid_for_seconds must be between 0 and ${MAX_VALID_FOR_SECONDS}`,
      ),
    );
  }

  if (issues.length > 0 || !parsed.ok) return { ok: false, issues };
  return {
    ok: true,
    request: {
      command: parsed.command,
      targetUuid: (targetUuid as string).toLowerCase(),
      validForSeconds: validFor as number,
    },
  };
}
