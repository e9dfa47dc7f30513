import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** What the transport of an upgrade request proves, whether TLS ended in this process or at a trusted ingress. */
export interface TransportSecurity {
  remoteAddress: string;
  tls: boolean;
  /** Common name of a client certificate that a trusted CA signed (security profile 3); undefined otherwise. */
  verifiedClientCertificateCn: string | undefined;
}

function firstHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** CN out of an RFC 2253/4514 ("CN=x,O=y") or OpenSSL one-line ("/O=y/CN=x") distinguished name. */
export function commonNameOf(distinguishedName: string): string | undefined {
  const match = /(?:^|[,/])\s*CN=((?:\\.|[^,/\\])*)/i.exec(distinguishedName);
  return match?.[1]?.replace(/\\(.)/g, '$1').trim();
}

export function readTransportSecurity(
  request: IncomingMessage,
  config: OcppGatewayConfig,
): TransportSecurity {
  const socket = request.socket;
  if (config.trustProxyHeaders) {
    const forwardedFor = firstHeader(request, 'x-forwarded-for')?.split(',')[0]?.trim();
    const verified = firstHeader(request, config.proxyClientCertVerifyHeader)?.toUpperCase() === 'SUCCESS';
    const subject = firstHeader(request, config.proxyClientCertSubjectHeader);
    return {
      remoteAddress: forwardedFor || socket.remoteAddress || 'unknown',
      tls:
        socket instanceof TLSSocket || firstHeader(request, 'x-forwarded-proto')?.toLowerCase() === 'https',
      verifiedClientCertificateCn: verified && subject ? commonNameOf(subject) : undefined,
    };
  }
  if (socket instanceof TLSSocket) {
    const certificate = socket.authorized ? socket.getPeerCertificate() : undefined;
    const cn = certificate?.subject?.CN;
    return {
      remoteAddress: socket.remoteAddress ?? 'unknown',
      tls: true,
      verifiedClientCertificateCn: Array.isArray(cn) ? cn[0] : cn,
    };
  }
  return {
    remoteAddress: socket.remoteAddress ?? 'unknown',
    tls: false,
    verifiedClientCertificateCn: undefined,
  };
}
