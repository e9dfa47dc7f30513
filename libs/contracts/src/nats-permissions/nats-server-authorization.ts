import { EVENT_STREAM } from '../events/event-stream.js';
import {
  NATS_USER_NAMES,
  NATS_USERS,
  type NatsUserGrants,
  type NatsUserName,
  natsInboxPrefix,
} from './nats-users.js';

/** What nats-server enforces for one user (its `permissions` block). */
export interface NatsUserPermissions {
  publish: { allow: string[]; deny: string[] };
  subscribe: { allow: string[]; deny: string[] };
  /** The user may answer the requests it receives (one reply each) without a publish right on reply subjects. */
  allowResponses: boolean;
}

/** The environment variable holding a user's password, for nats-server (`$NAME` in its configuration) and Secrets. */
export function natsPasswordVariable(user: string): string {
  return `NATS_PASSWORD_${user.toUpperCase().replaceAll('-', '_')}`;
}

const STREAM = EVENT_STREAM.name;
const JS_API = '$JS.API';

function usesEventStream(grants: NatsUserGrants): boolean {
  return (
    grants.publishesEvents.length > 0 || grants.durableConsumers.length > 0 || grants.followsEvents.length > 0
  );
}

function usesJetStream(grants: NatsUserGrants): boolean {
  return usesEventStream(grants) || grants.kvBuckets.length > 0;
}

/**
 * The JetStream API subjects nats.js (`@nats-io/jetstream`, `@nats-io/kv` 3.x against nats-server 2.9) sends for what
 * the user does: each subject names its stream and consumer, so a user reaches only its own consumers and buckets.
 */
function jetStreamPublishes(grants: NatsUserGrants): string[] {
  if (!usesJetStream(grants)) return [];
  // jetstreamManager() asks for the account's JetStream info first.
  const subjects = [`${JS_API}.INFO`];
  if (usesEventStream(grants)) {
    // Every service that uses the event stream creates it when missing (JetStreamEventBus.ensureStream).
    subjects.push(`${JS_API}.STREAM.INFO.${STREAM}`, `${JS_API}.STREAM.CREATE.${STREAM}`);
  }
  for (const { name, filterSubject } of grants.durableConsumers) {
    subjects.push(
      `${JS_API}.CONSUMER.CREATE.${STREAM}.${name}.${filterSubject}`,
      `${JS_API}.CONSUMER.INFO.${STREAM}.${name}`,
      `${JS_API}.CONSUMER.MSG.NEXT.${STREAM}.${name}`,
    );
    // A user with allow_responses acks as a response: nats-server 2.9 keeps the reply subject of every message it
    // delivers to such a user for two minutes unless the user answers it through that permission, and past 4,096
    // kept subjects it walks all of them at every delivery. An ack allowed by a grant of its own is not counted as
    // the answer, so at fleet rates every event delivered cost a walk over the last two minutes' deliveries.
    if (grants.answers.length === 0) subjects.push(`$JS.ACK.${STREAM}.${name}.>`);
  }
  if (grants.followsEvents.length > 0) {
    // Ordered consumers get a random name each time they are (re)created; the filter in the subject pins what they
    // read, and the denials of natsUserPermissions keep them off other users' durable consumers.
    subjects.push(
      ...grants.followsEvents.map((filter) => `${JS_API}.CONSUMER.CREATE.${STREAM}.*.${filter}`),
      `${JS_API}.CONSUMER.INFO.${STREAM}.*`,
      `${JS_API}.CONSUMER.DELETE.${STREAM}.*`,
      `${JS_API}.CONSUMER.MSG.NEXT.${STREAM}.*`,
    );
  }
  for (const bucket of grants.kvBuckets) {
    const stream = `KV_${bucket}`;
    subjects.push(
      `$KV.${bucket}.>`,
      `${JS_API}.STREAM.INFO.${stream}`,
      `${JS_API}.STREAM.CREATE.${stream}`,
      `${JS_API}.STREAM.UPDATE.${stream}`,
      `${JS_API}.STREAM.MSG.GET.${stream}`,
      `${JS_API}.DIRECT.GET.${stream}`,
      `${JS_API}.DIRECT.GET.${stream}.>`,
      // keys() and watch() run an ordered push consumer with flow control.
      `${JS_API}.CONSUMER.CREATE.${stream}`,
      `${JS_API}.CONSUMER.CREATE.${stream}.>`,
      `${JS_API}.CONSUMER.INFO.${stream}.*`,
      `${JS_API}.CONSUMER.DELETE.${stream}.*`,
      `${JS_API}.CONSUMER.MSG.NEXT.${stream}.*`,
      `$JS.FC.${stream}.>`,
    );
  }
  return subjects;
}

/** Other users' durable consumers, which a user with wildcard consumer rights (ordered consumers) must not touch. */
function othersDurableDenials(user: NatsUserName): string[] {
  if (NATS_USERS[user].followsEvents.length === 0) return [];
  return NATS_USER_NAMES.filter((other) => other !== user).flatMap((other) =>
    (NATS_USERS[other] as NatsUserGrants).durableConsumers.flatMap(({ name }) => [
      `${JS_API}.CONSUMER.CREATE.${STREAM}.${name}.>`,
      `${JS_API}.CONSUMER.DELETE.${STREAM}.${name}`,
      `${JS_API}.CONSUMER.MSG.NEXT.${STREAM}.${name}`,
    ]),
  );
}

function unique(subjects: string[]): string[] {
  return [...new Set(subjects)];
}

/** The permissions nats-server gives `user`, derived from its grants in NATS_USERS. */
export function natsUserPermissions(user: NatsUserName): NatsUserPermissions {
  const grants: NatsUserGrants = NATS_USERS[user];
  const publish = unique([
    ...grants.calls,
    ...grants.broadcasts,
    ...grants.publishesEvents,
    ...jetStreamPublishes(grants),
  ]);
  const needsInbox = grants.calls.length > 0 || usesJetStream(grants);
  const subscribe = unique([
    ...grants.answers,
    ...grants.listens,
    ...(needsInbox ? [`${natsInboxPrefix(user)}.>`] : []),
  ]);
  // An empty allow list would mean "no restriction" to nats-server: nothing allowed is said with a denial of all.
  return {
    publish:
      publish.length > 0 ? { allow: publish, deny: othersDurableDenials(user) } : { allow: [], deny: ['>'] },
    subscribe: subscribe.length > 0 ? { allow: subscribe, deny: [] } : { allow: [], deny: ['>'] },
    allowResponses: grants.answers.length > 0,
  };
}

function quoted(subject: string): string {
  return JSON.stringify(subject);
}

function renderList(subjects: string[], indent: string): string {
  if (subjects.length === 0) return '[]';
  return `[\n${subjects.map((subject) => `${indent}  ${quoted(subject)}`).join('\n')}\n${indent}]`;
}

function renderDirection(direction: { allow: string[]; deny: string[] }, indent: string): string {
  const lines = [`${indent}  allow: ${renderList(direction.allow, `${indent}  `)}`];
  if (direction.deny.length > 0) lines.push(`${indent}  deny: ${renderList(direction.deny, `${indent}  `)}`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The `authorization` block of nats-server's configuration (nats-server 2.9 syntax): one user per entry of NATS_USERS,
 * each with the password from `$NATS_PASSWORD_<USER>` in nats-server's environment. Generated, never edited by hand.
 */
export function natsServerAuthorization(
  options: { users?: readonly NatsUserName[]; unrestrictedUsers?: string[] } = {},
): string {
  // Test harnesses only: a user without restrictions, for tests that stand in for several services at once.
  const unrestricted = (options.unrestrictedUsers ?? []).map(
    (user) => `    {\n      user: ${quoted(user)}\n      password: $${natsPasswordVariable(user)}\n    }`,
  );
  const users = (options.users ?? NATS_USER_NAMES).map((user) => {
    const permissions = natsUserPermissions(user);
    const indent = '      ';
    return [
      '    {',
      `      user: ${quoted(user)}`,
      `      password: $${natsPasswordVariable(user)}`,
      '      permissions: {',
      `        publish: ${renderDirection(permissions.publish, `${indent}  `)}`,
      `        subscribe: ${renderDirection(permissions.subscribe, `${indent}  `)}`,
      ...(permissions.allowResponses ? ['        allow_responses: true'] : []),
      '      }',
      '    }',
    ].join('\n');
  });
  return `authorization {\n  users: [\n${[...users, ...unrestricted].join('\n')}\n  ]\n}\n`;
}

/**
 * The same users for the NATS Helm chart (`config.merge.authorization`), with `<< $VAR >>` variable references the
 * chart writes into nats.conf unquoted.
 */
export function natsHelmAuthorization(users: readonly NatsUserName[] = NATS_USER_NAMES): {
  users: Record<string, unknown>[];
} {
  return {
    users: users.map((user) => {
      const permissions = natsUserPermissions(user);
      const direction = (value: { allow: string[]; deny: string[] }) =>
        value.deny.length > 0 ? { allow: value.allow, deny: value.deny } : { allow: value.allow };
      return {
        user,
        password: `<< $${natsPasswordVariable(user)} >>`,
        permissions: {
          publish: direction(permissions.publish),
          subscribe: direction(permissions.subscribe),
          ...(permissions.allowResponses ? { allow_responses: true } : {}),
        },
      };
    }),
  };
}
