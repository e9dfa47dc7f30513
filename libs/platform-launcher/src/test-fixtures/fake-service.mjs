/* global process, setTimeout */
/**
 * Stands in for a compiled service entry in tests of the launcher and the platform harness. What it does depends on
 * where it is copied to (dist/apps/<service>/src/main.js, migrate.js or admin-cli/main.js), or on FAKE_MODE.
 *   main:    HTTP /health/ready on API_PORT (api-gateway) or HEALTH_PORT; 503 until FAKE_READY_AFTER_MS have passed.
 *   migrate: prints a line and exits 0 (1 when FAKE_MIGRATE_FAIL names the service).
 *   admin:   prints {"args": [...], "databaseUrl": ...} as JSON; exits 2 when the first argument is "fail".
 * FAKE_JOURNAL names a file that gets one line per event ("migrate auth-service", "stop api-gateway").
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const path = process.argv[1] ?? '';
const service = process.env.FAKE_SERVICE ?? /apps\/([^/]+)\/src\//.exec(path)?.[1] ?? 'fake';
const mode =
  process.env.FAKE_MODE ??
  (path.includes('admin-cli') ? 'admin' : path.endsWith('migrate.js') ? 'migrate' : 'main');
const journal = (event) => {
  if (process.env.FAKE_JOURNAL) appendFileSync(process.env.FAKE_JOURNAL, `${event} ${service}\n`);
};

if (mode === 'admin') {
  const args = process.argv.slice(2);
  if (args[0] === 'fail') {
    process.stderr.write('admin: tenant "x" already exists\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify({ args, databaseUrl: process.env.DATABASE_URL })}\n`);
} else if (mode === 'migrate') {
  journal('migrate');
  if (process.env.FAKE_MIGRATE_FAIL === service) {
    process.stderr.write(`${service}: relation "x" already exists\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ service, migrationsApplied: [] })}\n`);
} else {
  if (process.env.FAKE_CRASH === service) {
    process.stderr.write(`${service}: start-up failed: cannot reach the database\n`);
    process.exit(1);
  }
  const port = Number(service === 'api-gateway' ? process.env.API_PORT : process.env.HEALTH_PORT);
  const readyAt = Date.now() + Number(process.env.FAKE_READY_AFTER_MS ?? 0);
  const server = createServer((request, response) => {
    const ready = Date.now() >= readyAt;
    response.writeHead(request.url === '/health/ready' && !ready ? 503 : 200, {
      'content-type': 'application/json',
    });
    response.end(
      JSON.stringify({
        status: ready ? 'ok' : 'starting',
        service,
        env: {
          NODE_ENV: process.env.NODE_ENV,
          LOG_LEVEL: process.env.LOG_LEVEL,
          DATABASE_URL: process.env.DATABASE_URL,
          NATS_USER: process.env.NATS_USER,
          NATS_PASSWORD_LENGTH: process.env.NATS_PASSWORD?.length,
        },
      }),
    );
  });
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`${service} listening on ${port}\n`);
    process.stderr.write(`${service} warns: this is a fake\n`);
  });
  process.on('SIGTERM', () => {
    if (process.env.FAKE_IGNORE_SIGTERM) {
      process.stderr.write(`${service} ignores SIGTERM\n`);
      return;
    }
    journal('stop');
    server.close();
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 10);
  });
}
