import {
  type Command,
  type components,
  type CreateCommandRequest,
  createPlatformClient,
  type Credentials,
  type PlatformClient,
} from '@cpc/sdk';
import { eventually, OpenApiResponseValidator, USER_PASSWORD } from '@cpc/testing';

/**
 * The typed SDK (libs/sdk) as an end-to-end test's client: signed in with `credentials`, and every answer, the token
 * endpoint's included, checked against the served OpenAPI document as ApiTestClient checks it. A test that compiles
 * against the SDK breaks when the API changes in a way that breaks generated clients.
 */
export async function sdkTestClient(
  apiUrl: string,
  credentials: Credentials,
  validator?: OpenApiResponseValidator,
): Promise<PlatformClient> {
  const check = validator ?? (await OpenApiResponseValidator.fetch(apiUrl));
  return createPlatformClient({
    baseUrl: apiUrl,
    credentials,
    // A test sees the API's own 429s rather than the SDK's retries of them.
    retry: { maxRetries: 0 },
    fetch: async (request) => {
      const response = await fetch(request);
      const text = await response.clone().text();
      check.validate(
        request.method,
        request.url,
        response.status,
        text === '' ? undefined : JSON.parse(text),
      );
      return response;
    },
  });
}

/** sdkTestClient signed in as the user `<role>@<slug>.test` that usersWithRoles / tenantWithUsers made. */
export function sdkTestUser(
  apiUrl: string,
  slug: string,
  role: string,
  validator?: OpenApiResponseValidator,
): Promise<PlatformClient> {
  return sdkTestClient(
    apiUrl,
    { username: `${role}@${slug}.test`, password: USER_PASSWORD, tenant: slug },
    validator,
  );
}

export const COMMANDS_PATH = '/api/v1/control/commands';

/** The validation issues of a refusal (the spec's `{errors: [...]}`), from an SDK answer's `error`. */
export const issuesOf = (error: unknown) => (error as components['schemas']['ValidationErrorsBody']).errors;

/** POST /api/v1/control/commands as `as`, the body typed by the SDK: the created command, or the test fails. */
export async function createdCommand(as: PlatformClient, body: CreateCommandRequest): Promise<Command> {
  const { data, error, response } = await as.api.POST(COMMANDS_PATH, { body });
  if (data === undefined) throw new Error(`create answered ${response.status}: ${JSON.stringify(error)}`);
  return data.command;
}

/** GET /api/v1/control/commands/{uuid} as `as`: the command, or the test fails. */
export async function readCommand(as: PlatformClient, uuid: string): Promise<Command> {
  const { data, error, response } = await as.api.GET('/api/v1/control/commands/{uuid}', {
    params: { path: { uuid } },
  });
  if (data === undefined) throw new Error(`read answered ${response.status}: ${JSON.stringify(error)}`);
  return data.command;
}

/**
 * The command once it is terminal (`completed_at` set), read as `as` through the SDK. Waits up to a minute: a command
 * of many calls (a local list of 21 parts) takes more than the usual 15 s on a busy machine.
 */
export function endedCommand(as: PlatformClient, uuid: string): Promise<Command> {
  return eventually(
    () => readCommand(as, uuid),
    (command) => typeof command.completed_at === 'string',
    { timeoutMs: 60_000 },
  );
}
