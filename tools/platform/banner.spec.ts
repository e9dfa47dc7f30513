import { platformBanner } from './banner.js';

describe('platformBanner', () => {
  it('says where the API, its docs and the OCPP endpoint listen, and how to get a first token', () => {
    const banner = platformBanner({
      databaseUrl: 'postgres://postgres:secret@127.0.0.1:5432/cpc',
      natsUrl: 'nats://127.0.0.1:4222',
      apiPort: 3000,
      ocppPort: 9000,
      embeddedPostgresDir: '/repo/.data/postgres',
    });
    expect(banner).toContain('HTTP API     http://127.0.0.1:3000/api/v1\n');
    expect(banner).toContain('API docs     http://127.0.0.1:3000/docs\n');
    expect(banner).toContain('OCPP         ws://127.0.0.1:9000/ocpp/<tenant>/<identity>');
    expect(banner).toContain(
      'postgres://postgres:***@127.0.0.1:5432/cpc (embedded, data in /repo/.data/postgres)',
    );
    expect(banner).not.toContain('secret');
    expect(banner).toContain('NATS         nats://127.0.0.1:4222\n');
    expect(banner).toMatch(
      /npm run admin -- tenant:create --slug acme[^\n]*\n[^\n]*role:create[^\n]*\n[^\n]*read -rsp[^\n]*\n[^\n]*user:create[^\n]*--password-stdin/,
    );
    // No password on a command line, where ps shows it to every user of the machine.
    expect(banner).not.toMatch(/--password /);
    expect(banner).toContain(`curl -s http://127.0.0.1:3000/api/v1/oauth/token`);
    expect(banner).toContain('New tenants authorize drivers strictly');
    expect(banner).toContain('tenant:set-authorization-mode --slug acme --mode accept_unknown');
  });

  it('says where the passwords of the NATS it started are kept, never the passwords', () => {
    const banner = platformBanner({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/cpc',
      natsUrl: 'nats://127.0.0.1:4222',
      apiPort: 3000,
      ocppPort: 9000,
      natsStoreDir: '/repo/.data/nats',
      natsPasswordsFile: '/repo/.data/nats/passwords.json',
      natsPasswords: { 'api-gateway': 'p-secret-api-gateway-password' } as never,
    });
    expect(banner).toContain('a user per service, passwords in /repo/.data/nats/passwords.json');
    expect(banner).not.toContain('p-secret');
  });
});
