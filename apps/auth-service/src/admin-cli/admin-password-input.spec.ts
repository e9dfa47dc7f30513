import { PassThrough } from 'node:stream';
import { parseAdminArguments } from './admin-arguments.js';
import {
  ADMIN_PASSWORD_ENV,
  COMMAND_LINE_PASSWORD_WARNING,
  readAdminPassword,
} from './admin-password-input.js';

/** Reads the password of `user:set-password <flags>` with the given stdin text (ended) and environment. */
async function passwordOf(
  flags: string[],
  { stdin = '', env = {} }: { stdin?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const input = new PassThrough();
  input.end(stdin);
  const warnings: string[] = [];
  const args = parseAdminArguments([
    'user:set-password',
    '--tenant',
    'acme',
    '--email',
    'a@acme.test',
    ...flags,
  ]);
  const password = await readAdminPassword(args, { env, stdin: input, warn: (text) => warnings.push(text) });
  return { password, warnings };
}

describe('readAdminPassword', () => {
  it('reads one line of standard input with --password-stdin, without its line end, and warns about nothing', async () => {
    expect(await passwordOf(['--password-stdin'], { stdin: 'correct horse 9\r\nignored\n' })).toEqual({
      password: 'correct horse 9',
      warnings: [],
    });
    expect((await passwordOf(['--password-stdin'], { stdin: 'no-line-end' })).password).toBe('no-line-end');
  });

  it(`takes ${ADMIN_PASSWORD_ENV} when no password flag is given`, async () => {
    expect(await passwordOf([], { env: { [ADMIN_PASSWORD_ENV]: 'from-the-env' } })).toEqual({
      password: 'from-the-env',
      warnings: [],
    });
  });

  it('still takes --password, with a warning that other users can read it', async () => {
    expect(await passwordOf(['--password', 'on-the-line'], { env: { [ADMIN_PASSWORD_ENV]: 'env' } })).toEqual(
      {
        password: 'on-the-line',
        warnings: [COMMAND_LINE_PASSWORD_WARNING],
      },
    );
    expect(COMMAND_LINE_PASSWORD_WARNING).toMatch(/^warning: .*other users.*--password-stdin/);
  });

  it.each([
    ['no source at all', [], '', /needs a password: \(--password-stdin/],
    ['empty standard input', ['--password-stdin'], '', /standard input has no password/],
    ['an empty first line', ['--password-stdin'], '\nsecond', /standard input has no password/],
    ['both flags', ['--password-stdin', '--password', 'x'], 'y\n', /either --password-stdin or --password/],
    ['a value after --password-stdin', ['--password-stdin', 'oops'], 'y\n', /takes no value/],
    ['--password without a value', ['--password'], '', /--password needs a value/],
    ['an endless first line', ['--password-stdin'], 'x'.repeat(5000), /longer than 4096/],
  ])('refuses %s with a usage error', async (_case, flags, stdin, message) => {
    await expect(passwordOf(flags, { stdin })).rejects.toThrow(message);
  });
});
