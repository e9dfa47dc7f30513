import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import {
  type CertificateSubject,
  parseDistinguishedName,
  subjectOfPeerCertificate,
} from './certificate-subject.js';

/** What the transport of an upgrade request proves, whether TLS ended in this process or at a trusted ingress. */
export interface TransportSecurity {
  /** The client's address: the TCP peer, or what a trusted proxy says in X-Forwarded-For. */
  remoteAddress: string;
  tls: boolean;
  /** Subject of a client certificate that a trusted CA signed (security profile 3); undefined otherwise. */
  verifiedClientCertificate: CertificateSubject | undefined;
}

function lastHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  const header = Array.isArray(value) ? value[value.length - 1] : value;
  return header?.split(',').pop()?.trim();
}

type TransportConfig = Pick<
  OcppGatewayConfig,
  'trustedProxies' | 'proxyClientCertSubjectHeader' | 'proxyClientCertVerifyHeader'
>;

/** The client's address: X-Forwarded-For is read only when the TCP peer is a trusted proxy. */
export function clientAddressOf(
  request: IncomingMessage,
  config: Pick<OcppGatewayConfig, 'trustedProxies'>,
): string {
  const forwardedFor = request.headers['x-forwarded-for'];
  return (
    config.trustedProxies.clientAddress(
      request.socket.remoteAddress,
      Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
    ) ?? 'unknown'
  );
}

/**
 * Forwarded and client-certificate headers count only when the TCP peer is one of TRUSTED_PROXIES (the ingress);
 * from anyone else they are ignored, so a client cannot claim a certificate, TLS or another address by writing them.
 */
export function readTransportSecurity(request: IncomingMessage, config: TransportConfig): TransportSecurity {
  const socket = request.socket;
  const peerAddress = socket.remoteAddress;
  if (config.trustedProxies.includes(peerAddress)) {
    const verified = lastHeader(request, config.proxyClientCertVerifyHeader)?.toUpperCase() === 'SUCCESS';
    const subjectHeader = request.headers[config.proxyClientCertSubjectHeader];
    // A repeated certificate header is ambiguous: believe neither.
    const subject = typeof subjectHeader === 'string' ? subjectHeader : undefined;
    return {
      remoteAddress: clientAddressOf(request, config),
      tls: socket instanceof TLSSocket || lastHeader(request, 'x-forwarded-proto')?.toLowerCase() === 'https',
      verifiedClientCertificate: verified && subject ? parseDistinguishedName(subject) : undefined,
    };
  }
  if (socket instanceof TLSSocket) {
    const certificate = socket.authorized ? socket.getPeerCertificate() : undefined;
    return {
      remoteAddress: peerAddress ?? 'unknown',
      tls: true,
      verifiedClientCertificate: certificate?.subject
        ? subjectOfPeerCertificate(certificate.subject)
        : undefined,
    };
  }
  return { remoteAddress: peerAddress ?? 'unknown', tls: false, verifiedClientCertificate: undefined };
}
