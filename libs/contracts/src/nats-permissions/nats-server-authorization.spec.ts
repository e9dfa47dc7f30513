import { AuthSubjects } from '../auth/auth.subjects.js';
import { OcppGatewaySubjects } from '../ocpp-gateway/ocpp-gateway.subjects.js';
import { NATS_USER_NAMES, NATS_USERS, type NatsUserGrants } from './nats-users.js';
import { natsServerAuthorization, natsUserPermissions } from './nats-server-authorization.js';

/** NATS subject matching: `*` one token, `>` one or more at the end. */
function matches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let index = 0; index < wanted.length; index += 1) {
    if (wanted[index] === '>') return tokens.length > index;
    if (index >= tokens.length || (wanted[index] !== '*' && wanted[index] !== tokens[index])) return false;
  }
  return wanted.length === tokens.length;
}

const mayReceive = (subject: string) =>
  NATS_USER_NAMES.filter((user) =>
    natsUserPermissions(user).subscribe.allow.some((pattern) => matches(pattern, subject)),
  );

describe('NATS permissions generated from NATS_USERS', () => {
  it('lets only auth-service receive the signing-key and token requests', () => {
    for (const subject of [
      AuthSubjects.listSigningKeys,
      AuthSubjects.issueToken,
      AuthSubjects.refreshToken,
    ]) {
      expect(mayReceive(subject)).toEqual(['auth-service']);
    }
  });

  it('lets only ocpp-gateway receive the calls meant for charge points', () => {
    expect(mayReceive(OcppGatewaySubjects.call('9b2f7f5e-0c1e-4a43-8a8e-3a2f4f7c9d11'))).toEqual([
      'ocpp-gateway',
    ]);
  });

  it('has exactly one answering service for every subject some service calls', () => {
    for (const user of NATS_USER_NAMES) {
      for (const subject of (NATS_USERS[user] as NatsUserGrants).calls) {
        const answering = NATS_USER_NAMES.filter((candidate) =>
          (NATS_USERS[candidate] as NatsUserGrants).answers.includes(subject),
        );
        expect({ subject, answering }).toEqual({ subject, answering: [expect.any(String)] });
      }
    }
  });

  it("gives each user its own inbox only, and keeps users that follow events off others' durable consumers", () => {
    expect(natsUserPermissions('api-gateway').subscribe.allow).toContain('_INBOX_api-gateway.>');
    expect(mayReceive('_INBOX_api-gateway.abc.1')).toEqual(['api-gateway']);
    expect(natsUserPermissions('ocpp-gateway').publish.deny).toContain(
      '$JS.API.CONSUMER.MSG.NEXT.CPC_EVENTS.assets-service_charge-point-state',
    );
    expect(natsUserPermissions('command-service').publish.deny).not.toContain(
      '$JS.API.CONSUMER.MSG.NEXT.CPC_EVENTS.command-service_controller-deletions',
    );
  });

  it('lets users that answer requests ack their events only as responses to the events delivered to them', () => {
    // An ack with a grant of its own leaves nats-server tracking the delivery's reply subject for two minutes (see
    // jetStreamPublishes); answered through allow_responses, it is dropped at the next prune.
    for (const user of NATS_USER_NAMES) {
      const grants: NatsUserGrants = NATS_USERS[user];
      if (grants.durableConsumers.length === 0) continue;
      const permissions = natsUserPermissions(user);
      const ackGrants = permissions.publish.allow.filter((subject) => subject.startsWith('$JS.ACK.'));
      if (grants.answers.length > 0) {
        expect({ user, allowResponses: permissions.allowResponses, ackGrants }).toEqual({
          user,
          allowResponses: true,
          ackGrants: [],
        });
      } else {
        expect(ackGrants).toHaveLength(grants.durableConsumers.length);
      }
    }
  });

  it('denies everything in a direction where a user has nothing (an empty allow list would allow all)', () => {
    expect(natsUserPermissions('bench').publish).toEqual({ allow: [], deny: ['>'] });
    expect(natsServerAuthorization()).not.toMatch(/allow: \[\]\n(?!\s*deny)/);
  });

  it('reads every password from the environment, never from the file itself', () => {
    const passwords = natsServerAuthorization().match(/password: .*/g) ?? [];
    expect(passwords).toHaveLength(NATS_USER_NAMES.length);
    for (const line of passwords) expect(line).toMatch(/^password: \$NATS_PASSWORD_[A-Z_]+$/);
  });
});
