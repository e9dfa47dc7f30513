/** `<command> --flag value --switch` → command and flags; values may not start with `--`. */
export interface AdminArguments {
  command: string;
  flags: Map<string, string | true>;
}

export class AdminUsageError extends Error {}

export function parseAdminArguments(argv: string[]): AdminArguments {
  const [command, ...rest] = argv;
  if (!command || command.startsWith('--')) throw new AdminUsageError('missing command');
  const flags = new Map<string, string | true>();
  for (let index = 0; index < rest.length; index += 1) {
    const token = rest[index];
    if (!token.startsWith('--') || token.length < 3)
      throw new AdminUsageError(`unexpected argument "${token}"`);
    const next = rest[index + 1];
    if (next === undefined || next.startsWith('--')) {
      flags.set(token.slice(2), true);
    } else {
      flags.set(token.slice(2), next);
      index += 1;
    }
  }
  return { command, flags };
}

export function requiredFlag(args: AdminArguments, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== 'string') throw new AdminUsageError(`${args.command} needs --${name} <value>`);
  return value;
}

export function optionalFlag(args: AdminArguments, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new AdminUsageError(`--${name} needs a value`);
  return value;
}

/** `--name true` or `--name false`, nothing else: a switch that matters for security is never guessed. */
export function booleanFlag(args: AdminArguments, name: string): boolean {
  const value = requiredFlag(args, name);
  if (value !== 'true' && value !== 'false') {
    throw new AdminUsageError(`--${name} must be true or false, got "${value}"`);
  }
  return value === 'true';
}
