import 'reflect-metadata';
import { runServiceMain } from '@cpc/service-runtime';
import { loadCommandServiceConfig } from './command-service.config.js';
import { startCommandService } from './start-command-service.js';

runServiceMain(() => startCommandService(loadCommandServiceConfig()));
