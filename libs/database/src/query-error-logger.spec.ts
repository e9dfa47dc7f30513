import { Logger } from '@nestjs/common';
import { DomainErrorRpcFilter } from '@cpc/errors';
import { createLogger, PinoNestLogger } from '@cpc/logging';
import type { DataSource } from 'typeorm';
import { createServiceDataSource } from './service-data-source.js';
import { TEST_SERVER_URL } from './testing/test-server.js';

/** Real PostgreSQL; the logs of a service (pino behind Nest's Logger) captured line by line. */
describe('failed statements in the logs', () => {
  const secret = 'scrypt$16384$8$1$c2VjcmV0LXNhbHQ$c2VjcmV0LWhhc2gtb2YtYS1wYXNzd29yZA';
  const lines: string[] = [];
  let dataSource: DataSource;

  beforeAll(async () => {
    Logger.overrideLogger(
      new PinoNestLogger(createLogger('spec', 'debug', false, { write: (line: string) => lines.push(line) })),
    );
    dataSource = createServiceDataSource({
      url: TEST_SERVER_URL,
      schema: 'public',
      entities: [],
      migrations: [],
      poolSize: 1,
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    Logger.overrideLogger(false);
  });

  it('keep the SQL text and the error code, and no parameter, wherever the error is logged', async () => {
    // PostgreSQL's own message quotes the value here: "invalid input syntax for type uuid: \"<secret>\"".
    const failure = await dataSource.query('SELECT $1::uuid AS password_hash', [secret]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain(secret);

    new Logger('Handler').error(failure);
    new Logger('Handler').warn({ msg: 'update failed', err: failure });
    new DomainErrorRpcFilter().catch(failure).subscribe({ error: () => undefined });

    const output = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(output).not.toContain(secret);
    expect(output).not.toContain('c2VjcmV0');
    expect(output).toContain('SELECT $1::uuid AS password_hash');
    expect(output).toContain('22P02');
  });
});
