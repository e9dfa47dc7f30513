import 'reflect-metadata';
import { runServiceMain } from '@cpc/service-runtime';
import { loadAssetsServiceConfig } from './assets-service.config.js';
import { startAssetsService } from './start-assets-service.js';

runServiceMain(() => startAssetsService(loadAssetsServiceConfig()));
