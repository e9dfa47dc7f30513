const UUID_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A NATS subject as a metric label: per-object tokens (`ocpp.call.v1.<controller uuid>`) become `*`, so a label
 * names the kind of request and the number of series stays bounded.
 */
export function metricSubjectLabel(subject: string): string {
  return subject
    .split('.')
    .map((token) => (UUID_TOKEN.test(token) ? '*' : token))
    .join('.');
}
