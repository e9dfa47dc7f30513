import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AuthSubjects, type TenantSettingsChangedEvent } from '@cpc/contracts';
import { type PlatformUnderTest, startPlatformUnderTest } from '@cpc/testing';

describe('admin CLI: a tenant authorization mode', () => {
  let platform: PlatformUnderTest;
  let nats: NatsConnection;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({ services: ['auth-service'] });
    nats = await connect(platform.natsTestClientOptions);
  }, 180_000);

  afterAll(async () => {
    await nats?.drain();
    await platform?.stop();
  });

  it('starts strict, is set and read back, and announces the change to the gateways at once', async () => {
    const created = await platform.admin(['tenant:create', '--slug', 'acme']);
    expect(created).toMatchObject({ slug: 'acme', authorization_mode: 'strict' });

    const announced = new Promise<TenantSettingsChangedEvent>((resolve) => {
      nats.subscribe(AuthSubjects.tenantSettingsChanged, {
        max: 1,
        callback: (_error, message) => resolve(message.json<TenantSettingsChangedEvent>()),
      });
    });
    await nats.flush();
    const changed = await platform.admin([
      ...['tenant:set-authorization-mode', '--slug', 'acme', '--mode', 'accept_unknown'],
    ]);
    expect(changed).toMatchObject({ slug: 'acme', authorization_mode: 'accept_unknown' });
    await expect(announced).resolves.toEqual({
      uuid: created.uuid,
      slug: 'acme',
      allowsSecurityProfile0: false,
      authorizationMode: 'accept_unknown',
    });
    await expect(platform.admin(['tenant:show', '--slug', 'acme'])).resolves.toMatchObject({
      authorization_mode: 'accept_unknown',
    });
    await expect(platform.admin(['tenant:list'])).resolves.toEqual({
      tenants: [expect.objectContaining({ slug: 'acme', authorization_mode: 'accept_unknown' })],
    });
  });

  it('refuses a mode it does not know', async () => {
    await expect(
      platform.admin(['tenant:set-authorization-mode', '--slug', 'acme', '--mode', 'lenient']),
    ).rejects.toThrow(/mode must be one of strict, accept_unknown/);
  });
});
