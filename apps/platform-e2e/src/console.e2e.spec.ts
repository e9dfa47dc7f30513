import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import playwright, { type Browser, type Locator, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  USER_PASSWORD,
  WebhookReceiver,
} from '@cpc/testing';

/**
 * The management console in a real browser (Debian's chromium, headless, driven by playwright-core) against the real
 * platform: sign in, locations with their 422s, a controller whose simulated charge point comes online, a reset
 * followed to `accepted`, the configuration and events it reported, a session's power and energy charts, users, roles
 * and an API key whose secret shows once, webhooks with a test delivered to a real receiver, a role that cannot
 * delete, axe-core on the main screens at laptop and tablet widths. The run writes the screenshots of docs/console.md (docs/images/console-*.png).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent && process.env.CI !== 'true') {
  process.stderr.write(
    `console.e2e.spec.ts: SKIPPED, no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); ` +
      'in CI (CI=true) a missing chromium fails instead.\n',
  );
}

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const imagesDirectory = `${repositoryRoot}docs/images`;
// axe-core's own script, injected into the page: works on every Node the suite runs on (@axe-core/playwright needs
// Node 22.12 or newer).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const LAPTOP = { width: 1366, height: 900 };
const TABLET = { width: 768, height: 1024 };
const VIEWER_PERMISSIONS = [
  'asset:locations:list',
  'asset:locations:read',
  'asset:controllers:list',
  'asset:controllers:read',
  'asset:plugs:list',
  'control:commands:list',
  'control:commands:read',
].join(',');

/** A control's label as Mantine writes it: the text, then ` *` (hidden from screen readers) on a required field. */
const label = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

/**
 * Chooses a role in a form's Role field. The field is a text input until the role list has loaded and a select
 * after, so the choice waits for the role's option.
 */
async function selectRole(form: Locator, role: string): Promise<void> {
  const field = form.getByLabel(label('Role'));
  await field.locator('option', { hasText: role }).first().waitFor({ state: 'attached' });
  await field.selectOption(role);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

(chromiumPresent || process.env.CI === 'true' ? describe : describe.skip)(
  'management console in a browser',
  () => {
    let platform: PlatformUnderTest;
    let api: ApiTestClient;
    let browser: Browser;
    let page: Page;
    let assets: AssetsTestData;
    let chargePoint: ChargePoint | undefined;
    const cspViolations: string[] = [];
    const pageErrors: string[] = [];
    let locationUuid = '';
    let controllerUuid = '';
    let receiver: WebhookReceiver | undefined;

    const screenshot = async (name: string) => {
      mkdirSync(imagesDirectory, { recursive: true });
      await page.screenshot({ path: `${imagesDirectory}/console-${name}.png` });
    };

    /** axe-core on the page as it is; serious and critical violations fail the test, with what and where. */
    const expectNoSeriousAxeViolations = async (screen: string) => {
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource);
      const violations = await page.evaluate<AxeViolation[]>(
        'window.axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations)',
      );
      const serious = violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(
          (violation) =>
            `${screen}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        );
      expect(serious).toEqual([]);
    };

    /** The steps build on each other: after one fails, the rest say so instead of timing out one by one. */
    let failedStep: string | undefined;
    const step = (name: string, body: () => Promise<void>, timeoutMs = 120_000) =>
      it(
        name,
        async () => {
          if (failedStep) throw new Error(`not run: the step "${failedStep}" failed`);
          try {
            await body();
          } catch (error) {
            failedStep = name;
            throw error;
          }
        },
        timeoutMs,
      );

    const visible = (locator: ReturnType<Page['locator']>, timeout = 15_000) =>
      locator.waitFor({ state: 'visible', timeout });

    const signIn = async (email: string, password: string) => {
      await page.getByLabel(label('Tenant')).fill('acme');
      await page.getByLabel(label('E-mail')).fill(email);
      await page.getByLabel(label('Password')).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };

    beforeAll(async () => {
      if (!chromiumPresent)
        throw new Error(`CI=true and no chromium at ${CHROMIUM}: .ci/run installs it (apt)`);
      // The webhook receiver listens on loopback: allowed here, never in production (docs/webhooks.md).
      platform = await startPlatformUnderTest({
        env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8' },
      });
      receiver = await WebhookReceiver.start();
      api = await ApiTestClient.connect(platform.apiUrl);
      const tokens = await tenantWithUsers(platform, api, 'acme', {
        operator: '*',
        viewer: VIEWER_PERMISSIONS,
      });
      assets = new AssetsTestData(api, tokens.operator);
      browser = await playwright.chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox'],
      });
      page = await browser.newPage({ viewport: LAPTOP, reducedMotion: 'reduce' });
      page.setDefaultTimeout(15_000);
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          cspViolations.push(message.text());
      });
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 180_000);

    afterAll(async () => {
      await chargePoint?.close({ force: true }).catch(() => undefined);
      await receiver?.close();
      await browser?.close();
      await platform?.stop();
    }, 60_000);

    step('is served by api-gateway at /console with its own CSP, caching and a small bundle', async () => {
      for (const path of ['/console', '/console/', '/console/locations/any-route-of-the-console']) {
        const answer = await fetch(`${platform.apiUrl}${path}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
        expect(answer.headers.get('cache-control')).toBe('no-cache');
        expect(answer.headers.get('content-security-policy')).toContain("script-src 'self';");
        expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self'");
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
      }
      const html = await (await fetch(`${platform.apiUrl}/console`)).text();
      const scripts = [...html.matchAll(/src="\/console\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      const asset = await fetch(`${platform.apiUrl}/console/${scripts[0]}`, {
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe('br');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await fetch(`${platform.apiUrl}/console/assets/no-such-file.js`)).status).toBe(404);

      // The first screen's JavaScript (every script index.html loads), gzipped: under 300 KB (docs/console.md).
      const gzipBytes = scripts.reduce(
        (total, file) => total + statSync(`${repositoryRoot}dist/apps/console/${file}.gz`).size,
        0,
      );
      expect(gzipBytes).toBeLessThan(300 * 1024);
    });

    step(
      'signs in, and says so in words when the credentials are wrong',
      async () => {
        await page.goto(`${platform.apiUrl}/console/`);
        await visible(page.getByRole('heading', { name: 'Sign in to the console' }));
        await expectNoSeriousAxeViolations('sign in');
        await screenshot('sign-in');

        await signIn('operator@acme.test', 'not-the-password');
        await visible(page.getByRole('alert').filter({ hasText: 'the password is wrong' }));

        await page.getByLabel(label('Password')).fill(USER_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await visible(page.getByRole('heading', { name: 'Locations' }));
        expect(new URL(page.url()).pathname).toBe('/console/locations');
      },
      120_000,
    );

    step(
      'creates a location, showing the API 422 beside the field',
      async () => {
        await page.getByRole('button', { name: 'New location' }).click();
        await page.getByLabel(label('Name')).fill('Harbour car park');
        await page.getByLabel(label('City')).fill('Hamburg');
        await page.getByLabel(label('Country code')).fill('Germany');
        await page.getByRole('button', { name: 'Create location' }).click();

        const country = page.getByLabel(label('Country code'));
        await visible(page.locator('input[aria-invalid="true"]').first());
        expect(await country.getAttribute('aria-invalid')).toBe('true');
        const describedBy = (await country.getAttribute('aria-describedby')) ?? '';
        const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
        expect(errorId).toBeDefined();
        expect((await page.locator(`[id="${errorId}"]`).innerText()).trim()).not.toBe('');
        await expectNoSeriousAxeViolations('location form with errors');
        await screenshot('location-form-errors');

        await country.fill('DEU');
        await page.getByRole('button', { name: 'Create location' }).click();
        await visible(page.getByRole('heading', { name: 'Harbour car park' }));
        locationUuid = new URL(page.url()).pathname.split('/').pop() ?? '';
        expect(locationUuid).toMatch(/^[0-9a-f-]{36}$/);
      },
      120_000,
    );

    step(
      'adds a controller that goes online when its charge point connects',
      async () => {
        await page.getByRole('button', { name: 'Add controller' }).click();
        const form = page.getByRole('form', { name: 'New controller' });
        await form.getByLabel(label('Name')).fill('Bay 1');
        await form.getByLabel(label('OCPP identity')).fill('CP-BAY-1');
        await form.getByLabel(label('OCPP password')).fill(OCPP_PASSWORD);
        await form.getByRole('button', { name: 'Create controller' }).click();
        await visible(page.getByRole('heading', { name: 'Bay 1' }));
        controllerUuid = new URL(page.url()).pathname.split('/').pop() ?? '';
        await visible(page.getByLabel('Connection: offline'));
        await assets.plug(controllerUuid, 1);

        chargePoint = ocppChargePoint({
          ocppUrl: platform.ocppUrl,
          tenantSlug: 'acme',
          identity: 'CP-BAY-1',
          password: OCPP_PASSWORD,
          protocols: ['ocpp1.6'],
        });
        chargePoint.handle('Reset', () => ({ status: 'Accepted' }));
        chargePoint.handle('GetConfiguration', () => ({
          configurationKey: [
            { key: 'HeartbeatInterval', readonly: false, value: '300' },
            { key: 'NumberOfConnectors', readonly: true, value: '1' },
          ],
          unknownKey: [],
        }));
        await chargePoint.connect();
        await chargePoint.call('BootNotification', {
          chargePointVendor: 'ACME',
          chargePointModel: 'Wallbox 22',
          firmwareVersion: '2.4.1',
        });
        await chargePoint.call('StatusNotification', {
          connectorId: 1,
          errorCode: 'NoError',
          status: 'Available',
          timestamp: new Date().toISOString(),
        });

        await visible(page.getByLabel('Connection: online'), 20_000);
        await visible(page.getByText('Wallbox 22', { exact: true }), 20_000);
        await visible(page.getByLabel('Connector 1: Available'), 20_000);
      },
      150_000,
    );

    step(
      'sends a reset from the form built from the OpenAPI document and follows it to accepted',
      async () => {
        await page.getByLabel(label('Command type')).selectOption('soft_reset');
        await page.getByRole('button', { name: 'Send command' }).click();
        await visible(page.getByRole('status').getByLabel('Command status: accepted'), 30_000);
        await expectNoSeriousAxeViolations('controller');
        await screenshot('controller');

        // A command type with parameters: its fields come from the schema, and the API's 422 lands beside them.
        await page.getByLabel(label('Command type')).selectOption('change_availability');
        await page.getByRole('button', { name: 'Send command' }).click();
        await visible(page.getByRole('alert').filter({ hasText: 'The command was not sent' }));
        await expectNoSeriousAxeViolations('controller with a refused command');
      },
      120_000,
    );

    step(
      'shows the configuration and the events the charge point reported',
      async () => {
        await page.getByLabel(label('Command type')).selectOption('refresh_configuration');
        await page.getByRole('button', { name: 'Send command' }).click();
        const configuration = page.getByRole('table', {
          name: 'Configuration as the charge point reported it, by key',
        });
        await visible(configuration.getByText('HeartbeatInterval', { exact: true }), 30_000);
        await visible(configuration.getByText('NumberOfConnectors', { exact: true }));
        await page.getByLabel(label('Key starts with')).fill('Heart');
        await configuration.getByText('NumberOfConnectors', { exact: true }).waitFor({ state: 'detached' });
        await visible(configuration.getByRole('cell', { name: '300', exact: true }));

        const events = page.getByRole('table', { name: 'Events of this controller, newest first' });
        await visible(events.getByLabel('Event: booted'));
        await visible(events.getByLabel('Event: connected').first());
        await page.getByLabel(label('Event kind')).selectOption('status_changed');
        await events.getByLabel('Event: booted').waitFor({ state: 'detached' });
        await visible(events.getByText(/status: available/i).first());
        await expectNoSeriousAxeViolations('controller configuration and events');
        await page.getByRole('heading', { name: 'Configuration', exact: true }).scrollIntoViewIfNeeded();
        await screenshot('controller-configuration');
        await page.evaluate('window.scrollTo(0, 0)');
      },
      120_000,
    );

    step(
      'lists commands and charging sessions',
      async () => {
        const { transactionId } = (await chargePoint!.call('StartTransaction', {
          connectorId: 1,
          idTag: 'RFID-0001',
          meterStart: 1000,
          timestamp: new Date(Date.now() - 25 * 60_000).toISOString(),
        })) as { transactionId: number };
        // Three samples of the energy register and of power, ten minutes apart: the session's charts.
        for (const [minutesAgo, wh, kw] of [
          [20, 1600, 7.2],
          [10, 2800, 7.4],
          [0, 3900, 6.6],
        ]) {
          await chargePoint!.call('MeterValues', {
            connectorId: 1,
            transactionId,
            meterValue: [
              {
                timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
                sampledValue: [
                  { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
                  { value: String(kw), measurand: 'Power.Active.Import', unit: 'kW' },
                ],
              },
            ],
          });
        }

        await page.getByRole('link', { name: 'Commands' }).click();
        await visible(page.getByRole('heading', { name: 'Commands' }));
        await visible(page.getByRole('link', { name: 'soft reset' }));
        await page.getByLabel(label('Status')).selectOption('accepted');
        await visible(page.getByRole('cell').getByText('accepted').first());
        await expectNoSeriousAxeViolations('commands');
        await screenshot('commands');

        await page.getByRole('link', { name: 'Charging sessions' }).click();
        await visible(page.getByRole('heading', { name: 'Charging sessions' }));
        await visible(page.getByRole('cell', { name: 'RFID-0001' }), 20_000);
        await expectNoSeriousAxeViolations('charging sessions');
        await screenshot('charging-sessions');

        await page
          .getByRole('row', { name: /RFID-0001/ })
          .getByRole('link')
          .first()
          .click();
        await visible(page.getByRole('heading', { name: 'Power and energy' }), 20_000);
        await visible(page.getByRole('img', { name: /^Power: 3 samples/ }), 30_000);
        await visible(page.getByRole('img', { name: /^Energy delivered: 3 samples/ }), 30_000);
        expect(await page.getByRole('img', { name: /^Power: / }).getAttribute('aria-label')).toContain(
          'highest 7.4 kW',
        );
        expect(
          await page.getByRole('img', { name: /^Energy delivered: / }).getAttribute('aria-label'),
        ).toContain('last 2.90 kWh');
        await expectNoSeriousAxeViolations('charging session with charts');
        await screenshot('charging-session');

        await page.getByRole('link', { name: 'Locations' }).click();
        await visible(page.getByRole('link', { name: 'Harbour car park' }));
        await expectNoSeriousAxeViolations('locations');
        await screenshot('locations');
        await page.getByRole('link', { name: 'Harbour car park' }).click();
        await visible(page.getByRole('link', { name: 'Bay 1' }));
        await expectNoSeriousAxeViolations('location');
        await screenshot('location');
      },
      // Eleven screens and charts, each waited for: minutes on a machine shared with the other suites.
      180_000,
    );

    step(
      'fits a tablet in portrait',
      async () => {
        await page.setViewportSize(TABLET);
        await page.getByRole('link', { name: 'Controllers' }).click();
        await visible(page.getByRole('link', { name: 'Bay 1' }));
        await expectNoSeriousAxeViolations('controllers on a tablet');
        await screenshot('tablet-controllers');
        await page.setViewportSize(LAPTOP);
      },
      120_000,
    );

    step(
      'creates a role and a user, and says the last super admin refusal in words',
      async () => {
        await page.getByRole('link', { name: 'Roles' }).click();
        await visible(page.getByRole('heading', { name: 'Roles' }));
        await page.getByRole('button', { name: 'New role' }).click();
        const roleForm = page.getByRole('form', { name: 'New role' });
        await roleForm.getByLabel(label('Name')).fill('dispatcher');
        await roleForm.getByLabel(label('Permissions')).fill('asset:locations:list\nasset:locations:read');
        await roleForm.getByRole('button', { name: 'Create role' }).click();
        await visible(page.getByRole('cell', { name: 'dispatcher', exact: true }));
        await expectNoSeriousAxeViolations('roles');

        await page.getByRole('link', { name: 'Users' }).click();
        await visible(page.getByRole('heading', { name: 'Users' }));
        await page.getByRole('button', { name: 'New user' }).click();
        const userForm = page.getByRole('form', { name: 'New user' });
        await userForm.getByLabel(label('E-mail')).fill('dispatcher@acme.test');
        await userForm.getByLabel(label('Password')).fill(USER_PASSWORD);
        await selectRole(userForm, 'dispatcher');
        await expectNoSeriousAxeViolations('new user form');
        await userForm.getByRole('button', { name: 'Create user' }).click();
        await visible(page.getByRole('cell', { name: 'dispatcher@acme.test', exact: true }));

        // The only enabled holder of * cannot disable itself: the API's 422 last_super_admin, in words.
        await page.getByRole('button', { name: 'Edit operator@acme.test' }).click();
        const editForm = page.getByRole('form', { name: 'Edit operator@acme.test' });
        await editForm.getByLabel('Enabled (may sign in)').uncheck();
        await editForm.getByRole('button', { name: 'Save user' }).click();
        await visible(
          editForm.getByRole('alert').filter({ hasText: 'without an enabled user holding every' }),
        );
        await editForm.getByRole('button', { name: 'Cancel' }).click();
        await visible(page.getByRole('button', { name: 'New user' }));
        await expectNoSeriousAxeViolations('users');
        await screenshot('users');
      },
      120_000,
    );

    step(
      'creates an API key whose secret is shown once, then revokes it',
      async () => {
        await page.getByRole('link', { name: 'API keys' }).click();
        await visible(page.getByRole('heading', { name: 'API keys' }));
        await page.getByRole('button', { name: 'New API key' }).click();
        const keyForm = page.getByRole('form', { name: 'New API key' });
        await keyForm.getByLabel(label('Name')).fill('billing export');
        await selectRole(keyForm, 'dispatcher');
        await keyForm.getByRole('button', { name: 'Create API key' }).click();

        const secretDialog = page.getByRole('dialog', { name: "The new API key's secret" });
        await visible(secretDialog);
        await visible(secretDialog.getByRole('button', { name: 'Copy private key' }));
        const secret = (await page.getByTestId('api-key-secret').innerText()).trim();
        expect(secret.length).toBeGreaterThan(16);
        await expectNoSeriousAxeViolations('API key secret');
        await screenshot('api-key-secret');
        await secretDialog.getByRole('button', { name: 'I have copied it, close' }).click();
        await secretDialog.waitFor({ state: 'detached' });
        await visible(page.getByRole('cell', { name: 'billing export', exact: true }));
        expect(await page.content()).not.toContain(secret);
        await page.reload();
        await visible(page.getByRole('cell', { name: 'billing export', exact: true }));
        expect(await page.content()).not.toContain(secret);
        await expectNoSeriousAxeViolations('API keys');
        await screenshot('api-keys');

        await page.getByRole('button', { name: 'Revoke billing export' }).click();
        await page
          .getByRole('dialog', { name: 'Revoke this API key?' })
          .getByRole('button', { name: 'Revoke API key' })
          .click();
        await page.getByRole('cell', { name: 'billing export', exact: true }).waitFor({ state: 'detached' });
        await page.getByLabel(label('Revoked')).selectOption('true');
        await visible(page.getByRole('cell', { name: 'billing export', exact: true }));
        expect(await page.getByRole('button', { name: 'Revoke billing export' }).count()).toBe(0);

        await page.getByRole('link', { name: 'Audit events' }).click();
        await visible(page.getByRole('heading', { name: 'Audit events' }));
        await visible(page.getByRole('cell', { name: 'api_key.revoked', exact: true }));
        await page.getByLabel(label('Kind')).selectOption('user.created');
        // The previous page stays shown until the filtered one arrives.
        await page.getByRole('cell', { name: 'api_key.revoked', exact: true }).waitFor({ state: 'detached' });
        await visible(page.getByRole('cell', { name: 'user.created', exact: true }).first());
        await expectNoSeriousAxeViolations('audit events');
      },
      120_000,
    );

    step(
      'subscribes a webhook whose secret shows once, sends a test to a real receiver, retries, rotates, deletes',
      async () => {
        const hook = receiver!;
        await page.getByRole('link', { name: 'Webhooks' }).click();
        await visible(page.getByRole('heading', { name: 'Webhooks' }));
        await page.getByRole('button', { name: 'New webhook' }).click();
        const form = page.getByRole('form', { name: 'New webhook' });
        // A private address is refused (SSRF): the API's 422 beside the URL.
        await form.getByLabel(label('URL')).fill('http://10.1.2.3/hooks');
        await form.getByLabel('plug.status_changed').check();
        await form.getByRole('button', { name: 'Create webhook' }).click();
        await visible(form.getByRole('alert'));
        expect(await form.getByLabel(label('URL')).getAttribute('aria-invalid')).toBe('true');
        await expectNoSeriousAxeViolations('webhook form with errors');

        await form.getByLabel(label('URL')).fill(hook.url);
        await form.getByRole('button', { name: 'Create webhook' }).click();
        const secretDialog = page.getByRole('dialog', { name: "The webhook's signing secret" });
        await visible(secretDialog);
        const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
        expect(secret).toMatch(/^whsec_/);
        await expectNoSeriousAxeViolations('webhook secret');
        await screenshot('webhook-secret');
        await secretDialog.getByRole('button', { name: 'I have copied it, close' }).click();
        await secretDialog.waitFor({ state: 'detached' });
        await visible(page.getByRole('link', { name: hook.url }));
        expect(await page.content()).not.toContain(secret);
        await expectNoSeriousAxeViolations('webhooks');
        await screenshot('webhooks');

        // A test ping reaches the receiver, signed with the secret the dialog showed.
        await page.getByRole('link', { name: hook.url }).click();
        await visible(page.getByRole('heading', { name: 'Webhook', exact: true }));
        await page.getByRole('button', { name: 'Send test' }).click();
        await visible(page.getByLabel('Delivery ping: delivered'), 30_000);
        const pings = () => hook.received.filter((webhook) => JSON.parse(webhook.body).type === 'ping');
        const ping = await eventually(pings, (received) => received.length === 1);
        expect(JSON.parse(ping[0].body)).toMatchObject({ type: 'ping' });
        expect(() => new Webhook(secret).verify(ping[0].body, ping[0].headers)).not.toThrow();

        // A receiver that fails: the delivery stays pending with the answer shown, and Retry sends it again.
        let failing = true;
        hook.answer = () => (failing ? 500 : 204);
        await page.getByRole('button', { name: 'Send test' }).click();
        await visible(page.getByLabel('Delivery ping: pending'), 30_000);
        await visible(page.getByRole('cell', { name: /HTTP 500/ }), 30_000);
        failing = false;
        const retried = page.waitForResponse((answer) => answer.url().endsWith(':retry'));
        await page.getByRole('button', { name: /^Retry delivery msg_/ }).click();
        expect((await retried).status()).toBe(202);
        await page.getByLabel('Delivery ping: pending').waitFor({ state: 'detached', timeout: 30_000 });
        expect(await page.getByLabel('Delivery ping: delivered').count()).toBe(2);
        await expectNoSeriousAxeViolations('webhook');
        await screenshot('webhook');

        // Rotation shows a new secret once; the previous one keeps signing for a while.
        await page.getByRole('button', { name: 'Rotate secret' }).click();
        await page
          .getByRole('dialog', { name: 'Rotate this secret?' })
          .getByRole('button', { name: 'Rotate secret' })
          .click();
        await visible(secretDialog);
        const rotated = (await page.getByTestId('webhook-secret').innerText()).trim();
        expect(rotated).toMatch(/^whsec_/);
        expect(rotated).not.toBe(secret);
        await secretDialog.getByRole('button', { name: 'I have copied it, close' }).click();
        await secretDialog.waitFor({ state: 'detached' });
        expect(await page.content()).not.toContain(rotated);

        await page.getByRole('button', { name: 'Edit' }).click();
        const editForm = page.getByRole('form', { name: 'Edit webhook' });
        await editForm.getByLabel('Enabled (events are sent)').uncheck();
        await editForm.getByRole('button', { name: 'Save webhook' }).click();
        await editForm.waitFor({ state: 'detached' });
        await visible(page.getByText('disabled', { exact: true }));

        await page.getByRole('button', { name: 'Delete' }).click();
        await page
          .getByRole('dialog', { name: 'Delete this webhook?' })
          .getByRole('button', { name: 'Delete webhook' })
          .click();
        await visible(page.getByRole('heading', { name: 'Webhooks' }));
        await visible(page.getByText('No webhooks match.'));
      },
      180_000,
    );

    step(
      'shows a role that cannot delete no delete button, signed in with the keyboard alone',
      async () => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await visible(page.getByRole('heading', { name: 'Sign in to the console' }));
        await page.getByLabel(label('Tenant')).focus();
        await page.keyboard.type('acme');
        await page.keyboard.press('Tab');
        await page.keyboard.type('viewer@acme.test');
        await page.keyboard.press('Tab');
        await page.keyboard.type(USER_PASSWORD);
        await page.keyboard.press('Enter');
        await visible(page.getByRole('heading', { name: 'Locations' }));
        // A reload keeps the session (the refresh token of the tab, rotated), and the first Tab stop of a fresh page
        // skips the navigation.
        await page.reload();
        await visible(page.getByRole('heading', { name: 'Locations' }));
        await page.keyboard.press('Tab');
        expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
        expect(await page.getByRole('button', { name: 'New location' }).count()).toBe(0);
        expect(await page.getByRole('link', { name: 'Charging sessions' }).count()).toBe(0);
        for (const section of ['Users', 'Roles', 'API keys', 'Audit events', 'Webhooks'])
          expect(await page.getByRole('link', { name: section }).count()).toBe(0);

        await page.getByRole('link', { name: 'Harbour car park' }).click();
        await visible(page.getByRole('link', { name: 'Bay 1' }));
        expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Add controller' }).count()).toBe(0);

        await page.getByRole('link', { name: 'Bay 1' }).click();
        await visible(page.getByLabel('Connection: online'));
        expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Send command' }).count()).toBe(0);
      },
      120_000,
    );

    it('breaks no rule of its Content Security Policy and throws no error', () => {
      expect(cspViolations).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
