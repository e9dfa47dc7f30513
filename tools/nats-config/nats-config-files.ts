import { stringify } from 'yaml';
import {
  NATS_SERVICE_USERS,
  natsHelmAuthorization,
  natsPasswordVariable,
  natsServerAuthorization,
} from '@cpc/contracts';

/** The Kubernetes Secret holding every service's NATS password (one key per NATS_PASSWORD_<SERVICE> variable). */
export const NATS_PASSWORDS_SECRET = 'cpc-nats';

const GENERATED =
  'Generated from NATS_USERS (libs/contracts/src/nats-permissions) by `npm run nats:config`; do not edit.';

/**
 * The deployment files that carry the platform's NATS users and permissions, by path from the repository root: the
 * authorization docker-compose.yml's NATS includes, and the Helm values that give the chart the same users with their
 * passwords from the Secret cpc-nats.
 */
export function natsConfigFiles(): Record<string, string> {
  const helmValues = {
    config: { merge: { authorization: natsHelmAuthorization(NATS_SERVICE_USERS) } },
    container: {
      env: Object.fromEntries(
        NATS_SERVICE_USERS.map((user) => [
          natsPasswordVariable(user),
          { valueFrom: { secretKeyRef: { name: NATS_PASSWORDS_SECRET, key: natsPasswordVariable(user) } } },
        ]),
      ),
    },
  };
  return {
    'deploy/nats/authorization.conf': `# ${GENERATED}\n# Each password comes from nats-server's environment.\n${natsServerAuthorization({ users: NATS_SERVICE_USERS })}`,
    'deploy/k8s/nats/values-authorization.yaml':
      `# ${GENERATED}\n` +
      `# A user per service with its permissions; passwords from the Secret ${NATS_PASSWORDS_SECRET} (docs/security.md).\n` +
      '# Give it after values.yaml (and values-sandbox.yaml): helm ... -f values.yaml -f values-authorization.yaml\n' +
      stringify(helmValues, { lineWidth: 0 }),
  };
}
