/** Injection token of the gateway's OcppGatewayConfig. */
export const OCPP_GATEWAY_CONFIG = Symbol('OCPP_GATEWAY_CONFIG');
