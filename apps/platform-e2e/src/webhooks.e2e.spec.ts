import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  WebhookReceiver,
} from '@cpc/testing';
import { sdkTestUser } from './support/sdk-test-client.js';

const WEBHOOKS = '/api/v1/webhooks';

/**
 * Webhooks through HTTP on the real platform: subscriptions (secret shown once, pagination, PATCH, delete,
 * permissions, tenancy, SSRF refusals), a command's status changes delivered signed to a real receiver on loopback
 * with the command as GET returns it, the secret rotated, a ping and a retry; every response checked against the
 * served OpenAPI document.
 */
describe('webhooks API', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let readOnlyToken: string;
  let otherTenantToken: string;
  let controllerUuid: string;
  let receiver: WebhookReceiver;
  /** acme's operator by the typed SDK, for the command whose changes are delivered. */
  let operator: PlatformClient;

  const call = (method: string, path: string, body?: unknown, as = token) =>
    api.call(method, `${WEBHOOKS}${path}`, { token: as, body });

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'command-service', 'webhook-service', 'api-gateway'],
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8' },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    const acme = await tenantWithUsers(platform, api, 'acme', {
      operator: 'asset,control:commands,webhooks',
      auditor: 'webhooks:subscriptions:list,webhooks:subscriptions:read',
    });
    token = acme.operator;
    readOnlyToken = acme.auditor;
    otherTenantToken = (await tenantWithUsers(platform, api, 'globex', { operator: 'webhooks' })).operator;
    controllerUuid = (await new AssetsTestData(api, token).site(0)).controller.uuid;
    receiver = await WebhookReceiver.start();
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator');
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  it('creates, reads, lists, changes and deletes subscriptions; the secret only at creation', async () => {
    const created = await call('POST', '', { url: receiver.url, event_types: ['plug.status_changed'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const { uuid } = created.body.webhook;
    const read = await call('GET', `/${uuid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ webhook: created.body.webhook });
    const listed = await call('GET', '?limit=1', undefined, readOnlyToken);
    expect(listed.status).toBe(200);
    expect(listed.body.pagination).toMatchObject({ page: 1, page_size: 1 });
    const changed = await call('PATCH', `/${uuid}`, { controller_uuid: controllerUuid, enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body.webhook).toMatchObject({ controller_uuid: controllerUuid, enabled: false });
    expect((await call('PATCH', `/${uuid}`, { enabled: true }, readOnlyToken)).status).toBe(403);
    expect((await call('GET', `/${uuid}`, undefined, otherTenantToken)).status).toBe(404);
    expect((await call('DELETE', `/${uuid}`, undefined, otherTenantToken)).status).toBe(404);
    expect((await call('POST', `/${uuid}:rotate-secret`, undefined, otherTenantToken)).status).toBe(404);
    expect((await call('GET', `/${uuid}/deliveries`, undefined, otherTenantToken)).status).toBe(404);
    const deleted = await call('DELETE', `/${uuid}`);
    expect(deleted.status).toBe(200);
    expect((await call('GET', `/${uuid}`)).status).toBe(404);
  });

  it('refuses bodies that are wrong and targets on private, metadata or loopback addresses', async () => {
    const invalid = await call('POST', '', { url: receiver.url, event_types: ['nope'] });
    expect(invalid.status).toBe(422);
    for (const url of [
      'http://169.254.169.254/latest',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://[fd00::1]/',
    ]) {
      const refused = await call('POST', '', { url, event_types: ['command.status_changed'] });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ parameter: 'url', errorKey: 'forbidden_target' }),
      ]);
    }
    expect((await call('GET', `/${randomUUID()}`)).status).toBe(404);
  });

  it("delivers a command's status changes signed, with the command as GET returns it; rotation, ping and retry", async () => {
    const created = await call('POST', '', {
      url: receiver.url,
      event_types: ['command.status_changed'],
      controller_uuid: controllerUuid,
    });
    const { uuid } = created.body.webhook;
    const secret: string = created.body.secret;
    const command = await operator.api.POST('/api/v1/control/commands', {
      body: {
        type: 'soft_reset',
        target_type: 'controller',
        target_uuid: controllerUuid,
        valid_for_seconds: 3600,
      },
    });
    expect(command.response.status).toBe(202);
    const commandUuid = command.data!.command.command_uuid;
    const webhook = await eventually(
      () => receiver.received.find((received) => received.body.includes(commandUuid)),
      (found) => found !== undefined,
    );
    const payload = new Webhook(secret).verify(webhook!.body, webhook!.headers) as {
      type: string;
      data: { command: unknown };
    };
    expect(payload.type).toBe('command.status_changed');
    const read = await operator.api.GET('/api/v1/control/commands/{uuid}', {
      params: { path: { uuid: commandUuid } },
    });
    expect(payload.data.command).toEqual(read.data!.command);

    const rotated = await call('POST', `/${uuid}:rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const ping = await call('POST', `/${uuid}:test`);
    expect(ping.status).toBe(202);
    const pinged = await eventually(
      () =>
        receiver.received.find(
          (received) => received.headers['webhook-id'] === ping.body.delivery.webhook_id,
        ),
      (found) => found !== undefined,
    );
    expect(new Webhook(secret).verify(pinged!.body, pinged!.headers)).toMatchObject({ type: 'ping' });
    expect(new Webhook(rotated.body.secret).verify(pinged!.body, pinged!.headers)).toMatchObject({
      type: 'ping',
    });

    const deliveries = await eventually(
      () => call('GET', `/${uuid}/deliveries?status=delivered`),
      (response) => response.body.deliveries?.length >= 2,
    );
    expect(deliveries.status).toBe(200);
    const retried = await call('POST', `/${uuid}/deliveries/${ping.body.delivery.id}:retry`);
    expect(retried.status).toBe(202);
    await eventually(
      () =>
        receiver.received.filter(
          (received) => received.headers['webhook-id'] === ping.body.delivery.webhook_id,
        ),
      (copies) => copies.length === 2,
    );
    expect((await call('POST', `/${uuid}/deliveries/${randomUUID()}:retry`)).status).toBe(404);
  });
});
