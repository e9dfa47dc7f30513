import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { isUuid } from '@cpc/contracts';

/** Validated when present; an explicit null is refused like any other wrong type. */
export const OptionalField = () => ValidateIf((_object, value) => value !== undefined);

/** Validated when present and not null; null clears the field. */
export const NullableField = () => ValidateIf((_object, value) => value !== undefined && value !== null);

type SchemaOptions = Record<string, unknown>;

/**
 * A response property that is left out while unset: the answer never carries null (omitUnsetFields drops it), so
 * the document declares it optional and of its one type, which strict generated clients accept.
 */
export const ApiOmittedWhenUnset = (schema: SchemaOptions, options: Omit<ApiPropertyOptions, 'type'> = {}) =>
  ApiProperty({ ...options, ...schema, required: false });

/** A request property that may be sent as null (to clear it): `oneOf: [schema, {type: 'null'}]` (OpenAPI 3.1). */
export const ApiNullableInput = (schema: SchemaOptions, options: Omit<ApiPropertyOptions, 'type'> = {}) =>
  ApiProperty({ ...options, oneOf: [schema, { type: 'null' }] } as ApiPropertyOptions);

/** The constraint name of IsUuidString, which the one errorKey mapping turns into INVALID_UUID_ERROR_KEY. */
export const IS_UUID_CONSTRAINT = 'isUuid';

const lowerCased = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * A UUID (either case), lower-cased; `each` for a list of them. Not a string: errorKey invalid_type; a string that is
 * not a UUID: invalid_uuid.
 */
export const IsUuidString = (options: { each?: boolean; message?: string } = {}) =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      options.each && Array.isArray(value) ? value.map(lowerCased) : lowerCased(value),
    ),
    IsString({ each: options.each }),
    ValidateBy(
      { name: IS_UUID_CONSTRAINT, validator: { validate: isUuid } },
      {
        each: options.each,
        message: ({ property }) => options.message ?? `${property} must be a UUID`,
      },
    ),
  );

/** Query values arrive as strings: 'true' and 'false' become booleans, anything else stays and fails IsBoolean. */
export const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value));

/** Query values arrive as strings: digits become a number, anything else stays and fails IsInt. */
export const QueryInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
  );

/**
 * A decimal number as a string (numbers are accepted and turned into strings), with at most `maxDecimals`
 * fractional digits, within [min, max]. Format problems are `invalid_format`, range problems `out_of_range`.
 */
export function DecimalString(options: { min: number; max: number; maxDecimals: number }) {
  const pattern = new RegExp(`^-?\\d{1,7}(\\.\\d{1,${options.maxDecimals}})?$`);
  const inRange = (bound: 'min' | 'max') => (value: unknown) =>
    typeof value !== 'string' ||
    !pattern.test(value) ||
    (bound === 'min' ? Number(value) >= options.min : Number(value) <= options.max);
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value)),
    Matches(pattern, {
      message: ({ property }) =>
        `${property} must be a decimal number with at most ${options.maxDecimals} decimals, as a string`,
    }),
    ValidateBy({
      name: 'min',
      validator: {
        validate: inRange('min'),
        defaultMessage: (args) => `${args?.property ?? 'value'} must not be less than ${options.min}`,
      },
    }),
    ValidateBy({
      name: 'max',
      validator: {
        validate: inRange('max'),
        defaultMessage: (args) => `${args?.property ?? 'value'} must not be greater than ${options.max}`,
      },
    }),
  );
}

/** The spec's order_by: comma-separated fields each prefixed with + or -; an unencoded + arrives as a space. */
export function orderByPattern(fields: readonly string[]): RegExp {
  const field = `[+-](${fields.join('|')})`;
  return new RegExp(`^${field}(,${field})*$`);
}

export const OrderByTransform = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/(^|,) /g, '$1+') : value,
  );
