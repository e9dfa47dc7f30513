import type { ValidationIssue } from '@cpc/contracts';
import {
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  type CommandType,
  isCommandType,
  isTargetType,
  TARGET_TYPES,
  type TargetType,
} from './command-model.js';
import { type CommandParametersByType, PARAMETER_PARSERS } from './command-parameters.js';
import { FieldReader } from './field-reader.js';
import { CommandValidationErrorKey as ErrorKey } from './validation-error-keys.js';

/** The fields of a create request this lib judges (target_uuid and the rest belong to command-service). */
export interface CommandRequestInput {
  type?: unknown;
  target_type?: unknown;
  parameters?: unknown;
}

export interface CommandOf<T extends CommandType> {
  type: T;
  target_type: TargetType;
  parameters: CommandParametersByType[T];
}

/** A valid request with its normalized parameters; `type` narrows `parameters`. */
export type ValidCommandRequest = { [T in CommandType]: CommandOf<T> }[CommandType];

export type CommandRequestParseResult =
  { ok: true; command: ValidCommandRequest; issues: [] } | { ok: false; issues: ValidationIssue[] };

export interface ValidationOptions {
  /** Reference time for "must lie in the future" rules (reserve.expires_at). Default: the current time. */
  now?: Date;
}

function issueOn(parameter: string, errorKey: ErrorKey, message: string): ValidationIssue {
  return { errorKey, message, parameter };
}

function checkEnumField<T extends string>(
  name: string,
  value: unknown,
  values: readonly T[],
  isValid: (value: unknown) => value is T,
  issues: ValidationIssue[],
): T | undefined {
  if (isValid(value)) return value;
  if (value === undefined || value === null)
    issues.push(issueOn(name, ErrorKey.Required, `${name} is required`));
  else if (typeof value !== 'string')
    issues.push(issueOn(name, ErrorKey.InvalidType, `${name} must be a string`));
  else issues.push(issueOn(name, ErrorKey.InvalidValue, `${name} must be one of: ${values.join(', ')}`));
  return undefined;
}

/** @internal The parse behind validateCommandRequest and buildOcppCall; `now` null skips time-relative rules. */
export function parseRequest(input: CommandRequestInput, now: Date | null): CommandRequestParseResult {
  const issues: ValidationIssue[] = [];
  const type = checkEnumField('type', input.type, COMMAND_TYPES, isCommandType, issues);
  const targetType = checkEnumField('target_type', input.target_type, TARGET_TYPES, isTargetType, issues);
  if (type !== undefined && targetType !== undefined && !COMMAND_TARGET_TYPES[type].includes(targetType)) {
    issues.push(
      issueOn(
        'type',
        ErrorKey.InvalidTargetType,
        `type ${type} cannot address a ${targetType}; allowed target types: ${COMMAND_TARGET_TYPES[type].join(', ')}`,
      ),
    );
  }
  if (type === undefined) return { ok: false, issues };
  // Absent or null parameters are an empty object: types with required parameters then report each missing one.
  const rawParameters = input.parameters ?? {};
  const reader = FieldReader.of(rawParameters, 'parameters', issues);
  const parameters = reader && PARAMETER_PARSERS[type](reader, { targetType, now });
  if (issues.length > 0 || parameters === undefined || targetType === undefined) return { ok: false, issues };
  return {
    ok: true,
    command: { type, target_type: targetType, parameters } as ValidCommandRequest,
    issues: [],
  };
}

/**
 * Judges a create request: one issue per problem (unknown or missing type/target_type, a type that cannot address
 * the target type, each missing, unknown or invalid parameter), and on success the normalized parameters.
 */
export function parseCommandRequest(
  input: CommandRequestInput,
  options: ValidationOptions = {},
): CommandRequestParseResult {
  return parseRequest(input, options.now ?? new Date());
}

/** The issues of `parseCommandRequest`: empty when the request is valid. */
export function validateCommandRequest(
  input: CommandRequestInput,
  options: ValidationOptions = {},
): ValidationIssue[] {
  return parseCommandRequest(input, options).issues;
}
