import 'reflect-metadata';
import { runServiceMain } from '@cpc/service-runtime';
import { loadOcppGatewayConfig } from './ocpp-gateway.config.js';
import { startOcppGateway } from './start-ocpp-gateway.js';

runServiceMain(() => startOcppGateway(loadOcppGatewayConfig()));
