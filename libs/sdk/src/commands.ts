import type { components } from './generated/openapi.js';

/** A body of POST /api/v1/control/commands: one member per command type, each with its own `parameters`. */
export type CreateCommandRequest = components['schemas']['CreateCommandRequest'];
export type CommandType = CreateCommandRequest['type'];
/** The request body of one command type. */
export type CommandRequestOf<T extends CommandType> = Extract<CreateCommandRequest, { type: T }>;
/** The `parameters` a command type takes. */
export type CommandParameters<T extends CommandType> = NonNullable<CommandRequestOf<T>['parameters']>;
/** The target types a command type can address. */
export type CommandTargetType<T extends CommandType> = CommandRequestOf<T>['target_type'];
export type Command = components['schemas']['CommandBody'];
/** The answer of POST /api/v1/control/commands: the created command (202), or the error body the API sent. */
export type CreateCommandResult =
  | { data: components['schemas']['CommandResponse']; error?: never; response: Response }
  | { data?: never; error: unknown; response: Response };
