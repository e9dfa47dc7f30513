import 'reflect-metadata';
import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@cpc/config';
import { ServiceDatabaseModule } from '@cpc/database';
import { describeError, DomainError } from '@cpc/errors';
import { createLogger, PinoNestLogger } from '@cpc/logging';
import { authDataSourceOptions } from '../auth-data-source.js';
import { AuthDomainModule } from '../auth-domain.module.js';
import { type AuthServiceConfig, loadAuthServiceConfig } from '../auth-service.config.js';
import { SigningKeyChangePublisher } from '../signing-keys/signing-key-change-publisher.js';
import { AccountRevocationPublisher } from '../tokens/account-revocation-publisher.js';
import { AdminUsageError, parseAdminArguments } from './admin-arguments.js';
import { adminUsage, findAdminCommand } from './admin-commands.js';
import { readAdminPassword } from './admin-password-input.js';
import { withLocalPlatformNatsLogin } from './local-platform-nats-login.js';
import {
  CliAccountRevocationPublisher,
  CliSigningKeyChangePublisher,
} from './cli-signing-key-change-publisher.js';

@Module({})
class AdminCliModule {
  static register(config: AuthServiceConfig): DynamicModule {
    return {
      module: AdminCliModule,
      imports: [
        ServiceDatabaseModule.register({
          ...authDataSourceOptions(config.databaseUrl),
          poolSize: config.tuning.databasePoolSize,
        }),
        AuthDomainModule.register(
          config,
          { provide: SigningKeyChangePublisher, useValue: new CliSigningKeyChangePublisher(config) },
          {
            provide: AccountRevocationPublisher,
            useValue: new CliAccountRevocationPublisher(config),
          },
        ),
      ],
    };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof DomainError) {
    const details = error.issues?.map((issue) => `${issue.parameter}: ${issue.message}`).join('; ');
    return details ? `${error.message}: ${details}` : error.message;
  }
  if (error instanceof AdminUsageError) return `${error.message}\n\n${adminUsage()}`;
  if (error instanceof ConfigError) return error.message;
  return describeError(error);
}

async function main(): Promise<void> {
  const args = parseAdminArguments(process.argv.slice(2));
  const command = findAdminCommand(args.command);
  // `npm run admin` runs in the repository's root, where `npm start` keeps its NATS passwords.
  const config = loadAuthServiceConfig(withLocalPlatformNatsLogin(process.env, process.cwd()));
  const app = await NestFactory.createApplicationContext(AdminCliModule.register(config), {
    logger: new PinoNestLogger(createLogger('auth-admin-cli', 'warn', true)),
  });
  try {
    const result = await command.run(app, args, {
      password: () =>
        readAdminPassword(args, {
          env: process.env,
          stdin: process.stdin,
          warn: (text) => process.stderr.write(text),
        }),
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${describeFailure(error)}\n`);
  process.exitCode = error instanceof AdminUsageError ? 64 : 1;
});
