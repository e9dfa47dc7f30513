import type { ValidationIssue } from '@cpc/contracts';
import { CommandValidationErrorKey as ErrorKey } from './validation-error-keys.js';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * OCPP integers are 32-bit in practice (charge point firmware parses them into int32), so every integer the platform
 * forwards stays within that range.
 */
export const INT32_MAX = 2_147_483_647;

/** Schemes a charge point can upload to / download from (OCPP names FTP(S) and HTTP(S); SFTP is common). */
export const ALLOWED_URI_SCHEMES = ['ftp', 'ftps', 'http', 'https', 'sftp'] as const;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;
/** RFC 3986 characters, percent signs only as `%XX` escapes. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;

interface PresenceRule {
  required?: boolean;
}
interface StringRule extends PresenceRule {
  maxLength: number;
  pattern?: RegExp;
  patternMessage?: string;
  /** An empty or blank string is a value (configuration values), not a missing one. */
  allowEmpty?: boolean;
}
interface IntegerRule extends PresenceRule {
  min?: number;
  max?: number;
}
interface ArrayRule extends PresenceRule {
  minItems?: number;
  maxItems: number;
}

/**
 * Reads the fields of one JSON object and records one issue per problem under the field's full path. Each reader
 * returns the (normalized) value, or `undefined` when the field is absent or invalid. `null` counts as absent.
 */
export class FieldReader {
  private constructor(
    private readonly source: JsonObject,
    readonly path: string,
    readonly issues: ValidationIssue[],
  ) {}

  /** A reader for `value` at `path`, or `undefined` (and an issue) when `value` is not a JSON object. */
  static of(value: unknown, path: string, issues: ValidationIssue[]): FieldReader | undefined {
    if (isJsonObject(value)) return new FieldReader(value, path, issues);
    issues.push({
      errorKey: ErrorKey.InvalidType,
      message: `${path} must be an object`,
      parameter: path,
    });
    return undefined;
  }

  /** `parent.key`, or `parent[3]` for the items of an array (see `elements`). */
  fieldPath(key: string): string {
    return /^\d+$/.test(key) ? `${this.path}[${key}]` : `${this.path}.${key}`;
  }

  issue(key: string, errorKey: ErrorKey, message: string): void {
    const parameter = this.fieldPath(key);
    this.issues.push({ errorKey, message: `${parameter} ${message}`, parameter });
  }

  has(key: string): boolean {
    return this.source[key] !== undefined && this.source[key] !== null;
  }

  /** One `unknown_field` issue per key outside `allowed`. */
  rejectUnknown(allowed: readonly string[]): void {
    for (const key of Object.keys(this.source)) {
      if (!allowed.includes(key))
        this.issue(key, ErrorKey.UnknownField, 'is not a parameter of this command');
    }
  }

  private present(key: string, rule: PresenceRule): unknown {
    if (this.has(key)) return this.source[key];
    if (rule.required) this.issue(key, ErrorKey.Required, 'is required');
    return undefined;
  }

  string(key: string, rule: StringRule): string | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.invalidType(key, 'a string');
    if (value.trim() === '' && !rule.allowEmpty) {
      return this.invalid(key, ErrorKey.InvalidValue, 'must not be empty');
    }
    if (value.length > rule.maxLength) {
      return this.invalid(key, ErrorKey.InvalidLength, `must be at most ${rule.maxLength} characters long`);
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      return this.invalid(key, ErrorKey.InvalidValue, rule.patternMessage ?? 'has an invalid format');
    }
    return value;
  }

  /** A whole number in [min, max] (default: non-negative int32). */
  integer(key: string, rule: IntegerRule = {}): number | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.invalidType(key, 'an integer');
    return this.withinRange(key, value, rule.min ?? 0, rule.max ?? INT32_MAX);
  }

  /**
   * A non-negative number with at most one decimal: OCPP 1.6 declares charging limits and rates `multipleOf 0.1`
   * (2.0.1 allows any number, so the stricter rule applies to both). Returned rounded to that decimal.
   */
  decimal(key: string, rule: PresenceRule = {}): number | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.invalidType(key, 'a number');
    if (this.withinRange(key, value, 0, INT32_MAX) === undefined) return undefined;
    const tenths = Math.round(value * 10);
    if (Math.abs(tenths - value * 10) > 1e-6) {
      return this.invalid(key, ErrorKey.InvalidValue, 'must have at most one decimal (a multiple of 0.1)');
    }
    return tenths / 10;
  }

  boolean(key: string, rule: PresenceRule = {}): boolean | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    return typeof value === 'boolean' ? value : this.invalidType(key, 'true or false');
  }

  enumeration<T extends string>(key: string, values: readonly T[], rule: PresenceRule = {}): T | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.invalidType(key, 'a string');
    if (!(values as readonly string[]).includes(value)) {
      return this.invalid(key, ErrorKey.InvalidValue, `must be one of: ${values.join(', ')}`);
    }
    return value as T;
  }

  /**
   * An RFC 3339 date-time with seconds and a time zone, normalized to UTC (`2025-01-31T22:00:00Z`, milliseconds
   * kept when not zero): OCPP asks for UTC and at most three decimals.
   */
  dateTime(key: string, rule: PresenceRule = {}): string | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.invalidType(key, 'a date-time string');
    const normalized = normalizeDateTime(value);
    if (normalized === undefined) {
      return this.invalid(
        key,
        ErrorKey.InvalidDateTime,
        'must be an RFC 3339 date-time with seconds and a time zone, e.g. 2025-01-31T22:00:00Z',
      );
    }
    return normalized;
  }

  /** An absolute URI (scheme in ALLOWED_URI_SCHEMES, with a host), RFC 3986 characters only, at most `maxLength`. */
  uri(key: string, rule: PresenceRule & { maxLength: number }): string | undefined {
    const value = this.string(key, rule);
    if (value === undefined) return undefined;
    if (!isAllowedUri(value)) {
      return this.invalid(
        key,
        ErrorKey.InvalidUri,
        `must be an absolute URI with a host and one of the schemes ${ALLOWED_URI_SCHEMES.join(', ')}`,
      );
    }
    return value;
  }

  object(key: string, rule: PresenceRule = {}): FieldReader | undefined {
    const value = this.present(key, rule);
    return value === undefined ? undefined : FieldReader.of(value, this.fieldPath(key), this.issues);
  }

  /** A reader over the items of an array: item `i` is field `String(i)`, reported as `key[i]`. */
  elements(key: string, rule: ArrayRule): FieldReader | undefined {
    const value = this.present(key, rule);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return this.invalidType(key, 'an array');
    const minItems = rule.minItems ?? 0;
    if (value.length < minItems || value.length > rule.maxItems) {
      return this.invalid(key, ErrorKey.OutOfRange, `must hold ${minItems} to ${rule.maxItems} items`);
    }
    return new FieldReader(
      Object.fromEntries(value.map((item, index) => [String(index), item])),
      this.fieldPath(key),
      this.issues,
    );
  }

  /** The field names of this reader's source, in order (the indexes, for a reader made by `elements`). */
  indexes(): string[] {
    return Object.keys(this.source);
  }

  /** Reports `invalid_time_range` on `endKey` when both ends are known and the end lies before the start. */
  requireOrder(startKey: string, start: string | undefined, endKey: string, end: string | undefined): void {
    if (start !== undefined && end !== undefined && Date.parse(end) < Date.parse(start)) {
      this.issue(endKey, ErrorKey.InvalidTimeRange, `must not lie before ${this.fieldPath(startKey)}`);
    }
  }

  private withinRange(key: string, value: number, min: number, max: number): number | undefined {
    if (value < min || value > max)
      return this.invalid(key, ErrorKey.OutOfRange, `must be between ${min} and ${max}`);
    return value;
  }

  private invalidType(key: string, expected: string): undefined {
    return this.invalid(key, ErrorKey.InvalidType, `must be ${expected}`);
  }

  private invalid(key: string, errorKey: ErrorKey, message: string): undefined {
    this.issue(key, errorKey, message);
    return undefined;
  }
}

function normalizeDateTime(value: string): string | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [offsetHour, offsetMinute] = [match[9], match[10]].map((part) => Number(part ?? 0));
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const validDate =
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day;
  if (!validDate || hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59)
    return undefined;
  // Date.parse is only trusted with at most millisecond precision: cut longer fractions before parsing.
  const fraction = (match[7] ?? '').slice(0, 4);
  const epochMs = Date.parse(`${value.slice(0, 19)}${fraction}${match[8]}`.toUpperCase());
  if (Number.isNaN(epochMs)) return undefined;
  return new Date(epochMs).toISOString().replace('.000Z', 'Z');
}

function isAllowedUri(value: string): boolean {
  if (!URI_CHARACTERS.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const scheme = url.protocol.slice(0, -1);
  return (
    (ALLOWED_URI_SCHEMES as readonly string[]).includes(scheme) &&
    url.hostname !== '' &&
    value.includes('://')
  );
}
