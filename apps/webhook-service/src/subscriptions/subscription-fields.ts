import {
  invalidUuidIssue,
  isUuid,
  type ValidationIssue,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@cpc/contracts';

/** Longest receiver URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** The fields of a create or update request that passed the checks (absent = not sent). */
export interface CheckedFields {
  url?: URL;
  eventTypes?: WebhookEventType[];
  locationUuid?: string | null;
  controllerUuid?: string | null;
  enabled?: boolean;
}

/**
 * Checks the shape of every field sent (the target's addresses are checked after, by the TargetGuard); every problem
 * is one issue. `required` lists the fields a create must have.
 */
export function checkSubscriptionFields(
  body: Record<string, unknown>,
  options: { allowHttp: boolean; required: boolean },
): { fields: CheckedFields; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const fields: CheckedFields = {};
  const issue = (parameter: string, errorKey: string, message: string) =>
    issues.push({ parameter, errorKey, message });
  if (body.url !== undefined) {
    const url = parseUrl(body.url);
    const schemes = options.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (url === null)
      issue('url', 'invalid', `url must be an absolute URL of at most ${MAX_URL_LENGTH} characters`);
    else if (!schemes.includes(url.protocol)) issue('url', 'invalid', `url must use ${schemes.join(' or ')}`);
    else if (url.username !== '' || url.password !== '')
      issue('url', 'invalid', 'url must not hold credentials');
    else fields.url = url;
  } else if (options.required) issue('url', 'required', 'url is required');
  if (body.event_types !== undefined) {
    const types = body.event_types;
    if (
      !Array.isArray(types) ||
      types.length === 0 ||
      !types.every((type) => (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type))
    ) {
      issue(
        'event_types',
        'invalid',
        `event_types must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      );
    } else fields.eventTypes = [...new Set(types as WebhookEventType[])];
  } else if (options.required) issue('event_types', 'required', 'event_types is required');
  for (const [parameter, key] of [
    ['location_uuid', 'locationUuid'],
    ['controller_uuid', 'controllerUuid'],
  ] as const) {
    const value = body[parameter];
    if (value === undefined) continue;
    if (value === null || isUuid(value)) fields[key] = value === null ? null : value.toLowerCase();
    else if (typeof value !== 'string')
      issue(parameter, 'invalid_type', `${parameter} must be a UUID or null`);
    else issues.push(invalidUuidIssue(parameter, `${parameter} must be a UUID or null`));
  }
  if (body.enabled !== undefined) {
    if (typeof body.enabled === 'boolean') fields.enabled = body.enabled;
    else issue('enabled', 'invalid', 'enabled must be a boolean');
  }
  return { fields, issues };
}

function parseUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
