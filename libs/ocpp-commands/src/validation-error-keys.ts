/**
 * `errorKey` values of the validation issues this lib reports (the 422 body: `{ errors: [{ errorKey, message,
 * parameter }] }`). One issue per problem; `parameter` is the path of the field (`type`, `target_type`, `parameters`,
 * `parameters.id_tag`, `parameters.charging_profile.schedule.periods[0].limit`, ...).
 */
export const CommandValidationErrorKey = {
  /** A required field is missing or null. */
  Required: 'required',
  /** A field this command type does not define (at any depth of `parameters`). */
  UnknownField: 'unknown_field',
  /** Wrong JSON type: a string where an object is expected, a float where an integer is expected, ... */
  InvalidType: 'invalid_type',
  /** Right JSON type, wrong value: not one of the allowed values, a bad format, an empty string, a bad sequence. */
  InvalidValue: 'invalid_value',
  /** The command `type` cannot address this `target_type` (reported on `type`). */
  InvalidTargetType: 'invalid_target_type',
  /** A valid value that this combination does not allow (e.g. a `tx_profile` on a controller). */
  NotAllowed: 'not_allowed',
  /** A string longer than its limit (the same key as the generic pipeline's length rules). */
  InvalidLength: 'invalid_length',
  /** A number outside its range, or an array with too few or too many items. */
  OutOfRange: 'out_of_range',
  /** Not an absolute URI with an allowed scheme (see `ALLOWED_URI_SCHEMES`). */
  InvalidUri: 'invalid_uri',
  /** Not an RFC 3339 date-time with seconds and a time zone (`Z` or `±hh:mm`). */
  InvalidDateTime: 'invalid_date_time',
  /** The end of a time range lies before its start (reported on the end field). */
  InvalidTimeRange: 'invalid_time_range',
  /** A date-time that must lie in the future does not (reservation expiry). */
  NotInFuture: 'not_in_future',
} as const;
export type CommandValidationErrorKey =
  (typeof CommandValidationErrorKey)[keyof typeof CommandValidationErrorKey];
