import { sqlStatement } from '@cpc/database';

/** The statements of webhooks.subscriptions; every one is scoped by the tenant. */

export interface SubscriptionRow {
  uuid: string;
  url: string;
  event_types: string[];
  location_uuid: string | null;
  controller_uuid: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `uuid, url, event_types, location_uuid, controller_uuid, enabled, disabled_reason, failing_since,
       CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
       created_at, updated_at`;

export const insertSubscription = sqlStatement<
  {
    uuid: string;
    tenantUuid: string;
    url: string;
    eventTypes: string[];
    locationUuid: string | null;
    controllerUuid: string | null;
    enabled: boolean;
    secretCiphertext: string;
  },
  SubscriptionRow
>({
  name: 'subscriptions.insert',
  parameters: [
    'uuid',
    'tenantUuid',
    'url',
    'eventTypes',
    'locationUuid',
    'controllerUuid',
    'enabled',
    'secretCiphertext',
  ],
  sql: `INSERT INTO webhooks.subscriptions
              (uuid, tenant_uuid, url, event_types, location_uuid, controller_uuid, enabled, secret_ciphertext)
       VALUES (:uuid, :tenantUuid, :url, :eventTypes, :locationUuid, :controllerUuid, :enabled, :secretCiphertext)
       RETURNING ${COLUMNS}`,
});

export const listSubscriptions = sqlStatement<
  { tenantUuid: string; limit: number; offset: number },
  SubscriptionRow & { total: string }
>({
  name: 'subscriptions.list',
  parameters: ['tenantUuid', 'limit', 'offset'],
  sql: `SELECT ${COLUMNS}, count(*) OVER () AS total FROM webhooks.subscriptions
        WHERE tenant_uuid = :tenantUuid ORDER BY created_at DESC, uuid LIMIT :limit OFFSET :offset`,
});

export const countSubscriptions = sqlStatement<{ tenantUuid: string }, { total: string }>({
  name: 'subscriptions.count',
  parameters: ['tenantUuid'],
  sql: `SELECT count(*) AS total FROM webhooks.subscriptions WHERE tenant_uuid = :tenantUuid`,
});

export const getSubscription = sqlStatement<{ tenantUuid: string; uuid: string }, SubscriptionRow>({
  name: 'subscriptions.get',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT ${COLUMNS} FROM webhooks.subscriptions WHERE tenant_uuid = :tenantUuid AND uuid = :uuid`,
});

/**
 * The fields sent (`set*` true) take their new value; enabling clears why it was disabled and the failing streak.
 */
export const updateSubscription = sqlStatement<
  {
    tenantUuid: string;
    uuid: string;
    url: string | null;
    eventTypes: string[] | null;
    setLocation: boolean;
    locationUuid: string | null;
    setController: boolean;
    controllerUuid: string | null;
    enabled: boolean | null;
  },
  SubscriptionRow
>({
  name: 'subscriptions.update',
  parameters: [
    'tenantUuid',
    'uuid',
    'url',
    'eventTypes',
    'setLocation',
    'locationUuid',
    'setController',
    'controllerUuid',
    'enabled',
  ],
  sql: `UPDATE webhooks.subscriptions SET
          url = COALESCE(:url, url),
          event_types = COALESCE(:eventTypes, event_types),
          location_uuid = CASE WHEN :setLocation THEN :locationUuid::uuid ELSE location_uuid END,
          controller_uuid = CASE WHEN :setController THEN :controllerUuid::uuid ELSE controller_uuid END,
          enabled = COALESCE(:enabled, enabled),
          disabled_reason = CASE WHEN :enabled::boolean THEN NULL ELSE disabled_reason END,
          failing_since = CASE WHEN :enabled::boolean AND NOT enabled THEN NULL ELSE failing_since END,
          updated_at = now()
        WHERE tenant_uuid = :tenantUuid AND uuid = :uuid
        RETURNING ${COLUMNS}`,
});

export const deleteSubscription = sqlStatement<{ tenantUuid: string; uuid: string }, { uuid: string }>({
  name: 'subscriptions.delete',
  parameters: ['tenantUuid', 'uuid'],
  sql: `DELETE FROM webhooks.subscriptions WHERE tenant_uuid = :tenantUuid AND uuid = :uuid RETURNING uuid`,
});

/** The current secret becomes the previous one, signing beside the new one until `previousExpiresAt`. */
export const rotateSubscriptionSecret = sqlStatement<
  { tenantUuid: string; uuid: string; secretCiphertext: string; previousExpiresAt: Date },
  SubscriptionRow
>({
  name: 'subscriptions.rotate-secret',
  parameters: ['tenantUuid', 'uuid', 'secretCiphertext', 'previousExpiresAt'],
  sql: `UPDATE webhooks.subscriptions SET
          previous_secret_ciphertext = secret_ciphertext,
          previous_secret_expires_at = :previousExpiresAt,
          secret_ciphertext = :secretCiphertext,
          updated_at = now()
        WHERE tenant_uuid = :tenantUuid AND uuid = :uuid
        RETURNING ${COLUMNS}`,
});

/**
 * What the subscription index keeps of an enabled subscription: what fanOutEvents' WHERE asks of it but the location
 * (which only the statement, once it knows the controller's location, can judge).
 */
export interface IndexedSubscriptionRow {
  uuid: string;
  tenant_uuid: string;
  event_types: string[];
  controller_uuid: string | null;
}

const INDEXED_COLUMNS = 'uuid, tenant_uuid, event_types, controller_uuid';

/** Every enabled subscription, of every tenant (the index's full reload). */
export const enabledSubscriptions = sqlStatement<Record<never, never>, IndexedSubscriptionRow>({
  name: 'subscriptions.list-enabled',
  parameters: [],
  sql: `SELECT ${INDEXED_COLUMNS} FROM webhooks.subscriptions WHERE enabled`,
});

/** One subscription if it exists and is enabled (the index reads it again after a change). */
export const enabledSubscription = sqlStatement<{ uuid: string }, IndexedSubscriptionRow>({
  name: 'subscriptions.get-enabled',
  parameters: ['uuid'],
  sql: `SELECT ${INDEXED_COLUMNS} FROM webhooks.subscriptions WHERE uuid = :uuid AND enabled`,
});

/** For the SQL snapshots. */
export const SUBSCRIPTIONS_STATEMENTS = [
  insertSubscription,
  listSubscriptions,
  countSubscriptions,
  getSubscription,
  updateSubscription,
  deleteSubscription,
  rotateSubscriptionSecret,
  enabledSubscriptions,
  enabledSubscription,
];
