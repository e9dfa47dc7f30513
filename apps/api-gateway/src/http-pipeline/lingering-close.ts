import type { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import { API_GATEWAY_TUNING } from '../api-gateway.config.js';

export interface LingerBounds {
  /** Closes when the client sends nothing for this long. */
  idleMs: number;
  /** Closes after this long whatever the client does. */
  totalMs: number;
  /** Closes once this much has been read and dropped. */
  maxBytes: number;
}

/** The gateway's bounds (its tuning: lingerIdleMs, lingerTotalMs, lingerMaxBytes). */
export const LINGER_BOUNDS: LingerBounds = Object.freeze({
  idleMs: API_GATEWAY_TUNING.lingerIdleMs,
  totalMs: API_GATEWAY_TUNING.lingerTotalMs,
  maxBytes: API_GATEWAY_TUNING.lingerMaxBytes,
});

/**
 * Lets a client read the answer to a request the server refuses before reading its body (Fastify's 413 or 400 with
 * `connection: close`). Node's HTTP server destroys the socket right after such a response (`socket.destroySoon()` in
 * `resOnFinish`), and closing a socket with unread request data makes the kernel send RST: the client still writing its
 * body gets EPIPE/ECONNRESET and may lose the response. So while the latest request is incomplete the close lingers
 * (RFC 9112 section 9.6): the response goes out followed by a FIN, whatever the client still sends is read and dropped,
 * and the socket closes at the client's FIN or at the first of the bounds.
 */
export function lingerOnEarlyClose(server: Server, bounds: LingerBounds = LINGER_BOUNDS): void {
  // Before the application's listener, so the socket is ready however fast the response finishes.
  server.prependListener('request', (request: IncomingMessage) => {
    const socket = request.socket;
    socket.destroySoon = () =>
      request.complete ? Socket.prototype.destroySoon.call(socket) : lingerThenClose(socket, bounds);
  });
}

function lingerThenClose(socket: Socket, bounds: LingerBounds): void {
  socket.end();
  // What follows must not reach the HTTP parser, which would take it for a next request: its feed goes, and the 'data'
  // listener added below unhooks it from the socket (how Node hands a request's socket over to code that reads it).
  socket.removeAllListeners('data');
  const close = () => socket.destroy();
  const deadline = setTimeout(close, bounds.totalMs);
  socket.once('close', () => clearTimeout(deadline));
  socket.setTimeout(bounds.idleMs, close);
  const discard = () => {
    let discarded = 0;
    socket.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > bounds.maxBytes) close();
    });
    socket.once('end', close);
  };
  // A body nobody read has paused the socket; the server's own 'resume' listener restarts reading, so it runs first.
  if (socket.isPaused()) {
    socket.once('resume', discard);
    socket.resume();
  } else {
    discard();
  }
}
