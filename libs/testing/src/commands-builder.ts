import type { CommandView } from '@cpc/contracts';
import type { ApiTestClient } from './api-test-client.js';
import { eventually } from './eventually.js';

export const COMMANDS_PATH = '/api/v1/control/commands';

/** Commands through the API as one caller: create (expecting 202), read, and wait until one has ended. */
export class CommandsTestClient {
  constructor(
    private readonly api: ApiTestClient,
    private readonly token: string,
  ) {}

  async create(body: Record<string, unknown>): Promise<CommandView> {
    const response = await this.api.call<{ command: CommandView }>('POST', COMMANDS_PATH, {
      token: this.token,
      body,
    });
    if (response.status !== 202)
      throw new Error(`create answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body.command;
  }

  async read(uuid: string): Promise<CommandView> {
    return (
      await this.api.call<{ command: CommandView }>('GET', `${COMMANDS_PATH}/${uuid}`, { token: this.token })
    ).body.command;
  }

  /** The command once it is terminal (`completed_at` set). */
  ended(uuid: string): Promise<CommandView> {
    return eventually(
      () => this.read(uuid),
      (command) => typeof command.completed_at === 'string',
    );
  }
}
