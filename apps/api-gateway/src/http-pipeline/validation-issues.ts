import { INVALID_SCOPE_ERROR_KEY, INVALID_UUID_ERROR_KEY, type ValidationIssue } from '@cpc/contracts';
import type { ValidationError } from 'class-validator';

/** errorKey of each class-validator constraint; the keys are listed in docs/api.md and the OpenAPI document. */
const ERROR_KEY_BY_CONSTRAINT: Record<string, string> = {
  whitelistValidation: 'unknown_field',
  isDefined: 'required',
  isNotEmpty: 'required',
  isString: 'invalid_type',
  isInt: 'invalid_type',
  isNumber: 'invalid_type',
  isBoolean: 'invalid_type',
  isObject: 'invalid_type',
  isArray: 'invalid_type',
  nestedValidation: 'invalid_type',
  minLength: 'invalid_length',
  maxLength: 'invalid_length',
  length: 'invalid_length',
  isLength: 'invalid_length',
  arrayMinSize: 'invalid_length',
  arrayMaxSize: 'invalid_length',
  min: 'out_of_range',
  max: 'out_of_range',
  isIn: 'invalid_value',
  isEnum: 'invalid_value',
  // IsUuidString (and class-validator's IsUUID): one key for a malformed UUID in a path, a query or a body.
  isUuid: INVALID_UUID_ERROR_KEY,
  // The token request's scope (RFC 6749 §5.2 names a malformed scope as it names one beyond the grant).
  isScope: INVALID_SCOPE_ERROR_KEY,
};

export const VALIDATION_ERROR_KEYS = [
  ...new Set([...Object.values(ERROR_KEY_BY_CONSTRAINT), 'invalid_format']),
];

/** When a field breaks several rules, the one that explains the others is reported: a wrong type before its length. */
const PRIORITY = [
  'whitelistValidation',
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isObject',
  'isArray',
  'isLength',
];
const mostTelling = (constraints: [string, string][]): [string, string] =>
  [...constraints].sort(([a], [b]) => (PRIORITY.indexOf(a) + 1 || 99) - (PRIORITY.indexOf(b) + 1 || 99))[0];

/**
 * How a parameter is named: in a body by its dotted path (`schedule.periods[0].limit`), in a query as the client sent
 * it, in bracket notation (`filter[status]`).
 */
export type ParameterNotation = 'body' | 'query';

const joinPath = (parent: string, property: string, notation: ParameterNotation) =>
  !parent
    ? property
    : notation === 'query' || /^\d+$/.test(property)
      ? `${parent}[${property}]`
      : `${parent}.${property}`;

/** One issue per failing field (the first failed rule of each), `parameter` the field's name as the client sent it. */
export function toValidationIssues(
  errors: ValidationError[],
  notation: ParameterNotation = 'body',
  parent = '',
): ValidationIssue[] {
  return errors.flatMap((error) => {
    const parameter = joinPath(parent, error.property, notation);
    const children = error.children?.length ? toValidationIssues(error.children, notation, parameter) : [];
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length === 0) return children;
    const [constraint, message] =
      error.value === undefined && constraints.some(([name]) => name !== 'whitelistValidation')
        ? ['isDefined', `${parameter} is required`]
        : mostTelling(constraints);
    const errorKey = ERROR_KEY_BY_CONSTRAINT[constraint] ?? 'invalid_format';
    return [
      {
        errorKey,
        message: errorKey === 'unknown_field' ? `${parameter} is not a known field` : message,
        parameter,
      },
      ...children,
    ];
  });
}
