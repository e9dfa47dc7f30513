import { type AdminArguments, AdminUsageError } from './admin-arguments.js';

/** The environment variable a script can hand the password in, instead of the command line. */
export const ADMIN_PASSWORD_ENV = 'CPC_ADMIN_PASSWORD';
/** One line of standard input is a password, not a file: anything longer is refused rather than read on. */
const MAX_STDIN_LINE_CHARS = 4096;

export const PASSWORD_USAGE = `(--password-stdin | ${ADMIN_PASSWORD_ENV}=<password> | --password <password>)`;

export const COMMAND_LINE_PASSWORD_WARNING =
  `warning: --password puts the password on the command line, where other users of this machine can read it ` +
  `(ps, /proc); use --password-stdin or ${ADMIN_PASSWORD_ENV} instead\n`;

export interface PasswordSources {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  /** Where the warning about --password goes (stderr): stdout carries only the command's JSON. */
  warn(text: string): void;
}

/** The first line of `stream`, without its line end; undefined when the stream ends before giving anything. */
async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string | undefined> {
  stream.setEncoding('utf8');
  let text = '';
  for await (const chunk of stream) {
    text += chunk as string;
    const end = text.indexOf('\n');
    if (end >= 0) return text.slice(0, end).replace(/\r$/, '');
    if (text.length > MAX_STDIN_LINE_CHARS)
      throw new AdminUsageError(
        `the password on standard input is longer than ${MAX_STDIN_LINE_CHARS} characters`,
      );
  }
  return text === '' ? undefined : text.replace(/\r$/, '');
}

/**
 * The password of a command that sets one, from exactly one source: `--password-stdin` (one line of standard input),
 * `--password <value>` (still accepted, with a warning on stderr, because `ps` shows it to every user), or the
 * CPC_ADMIN_PASSWORD environment variable when neither flag is given.
 */
export async function readAdminPassword(args: AdminArguments, sources: PasswordSources): Promise<string> {
  const fromStdin = args.flags.get('password-stdin');
  const fromFlag = args.flags.get('password');
  if (fromStdin !== undefined && fromFlag !== undefined)
    throw new AdminUsageError('give either --password-stdin or --password, not both');
  if (fromStdin !== undefined) {
    if (fromStdin !== true) throw new AdminUsageError('--password-stdin takes no value');
    const line = await readFirstLine(sources.stdin);
    if (line === undefined || line === '')
      throw new AdminUsageError('--password-stdin: standard input has no password');
    return line;
  }
  if (fromFlag !== undefined) {
    if (fromFlag === true) throw new AdminUsageError('--password needs a value');
    sources.warn(COMMAND_LINE_PASSWORD_WARNING);
    return fromFlag;
  }
  const fromEnv = sources.env[ADMIN_PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  throw new AdminUsageError(`${args.command} needs a password: ${PASSWORD_USAGE}`);
}
