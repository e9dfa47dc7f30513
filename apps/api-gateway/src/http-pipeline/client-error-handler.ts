import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { rawSecurityHeaderLines } from './security-headers.js';

/**
 * Answers requests Node's HTTP parser refuses before Fastify sees them (header block too large, malformed request
 * line, bad Content-Length) with the spec's `{error}` body; Fastify's own handler adds `message` and `statusCode`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request line and headers too large']
        : [400, 'malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  // A response to HEAD has no body, or the client reads it as the start of the next response.
  const rawPacket = (error as { rawPacket?: unknown }).rawPacket;
  const head = Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n${rawSecurityHeaderLines()}Connection: close\r\n\r\n` +
        (head ? '' : body),
    );
  }
  socket.destroy();
}
