import { type PlatformSummary, redact } from '@cpc/platform-launcher';

/** What `npm start` prints once every service is ready: where things listen and how to get a first token. */
export function platformBanner(summary: PlatformSummary): string {
  const api = `http://127.0.0.1:${summary.apiPort}`;
  const database = summary.embeddedPostgresDir ? ` (embedded, data in ${summary.embeddedPostgresDir})` : '';
  const nats = summary.natsStoreDir
    ? ` (started here, JetStream store in ${summary.natsStoreDir}; a user per service, passwords in ${summary.natsPasswordsFile})`
    : '';
  return [
    '',
    'Charging Platform Core is running.',
    '',
    `  HTTP API     ${api}/api/v1`,
    `  API docs     ${api}/docs`,
    `  OCPP         ws://127.0.0.1:${summary.ocppPort}/ocpp/<tenant>/<identity>   (subprotocols ocpp1.6, ocpp2.0.1)`,
    `  PostgreSQL   ${redact(summary.databaseUrl)}${database}`,
    `  NATS         ${summary.natsUrl}${nats}`,
    '',
    'First tenant, role and user (in another terminal):',
    '',
    '  npm run admin -- tenant:create --slug acme --name "Acme Charging"',
    "  npm run admin -- role:create --tenant acme --name admin --permissions '*'",
    "  read -rsp 'Password: ' PASSWORD; echo   # not on any command line, so not in ps",
    '  printf \'%s\\n\' "$PASSWORD" | npm run admin -- user:create --tenant acme --email admin@acme.example --role admin --password-stdin',
    `  printf '%s' "$PASSWORD" | curl -s ${api}/api/v1/oauth/token \\`,
    '    --data-urlencode username=admin@acme.example --data-urlencode tenant=acme --data-urlencode password@-',
    '',
    'New tenants authorize drivers strictly: only their id tokens (POST /api/v1/authorization/id-tokens) may',
    'charge; `npm run admin -- tenant:set-authorization-mode --slug acme --mode accept_unknown` accepts any.',
    '',
    '`npm run admin` alone lists every admin command. Ctrl-C stops everything started here.',
    '',
  ].join('\n');
}
