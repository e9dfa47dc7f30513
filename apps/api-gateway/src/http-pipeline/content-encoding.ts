import type { FastifyInstance } from 'fastify';

/** The methods whose requests carry a body here: each of their operations documents 415. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Bodies are read as sent: a request whose body says it is compressed (any `Content-Encoding` but `identity`) is a
 * 415, as RFC 9110 asks of a coding the server does not take, instead of its bytes being parsed as if plain.
 */
export function refuseEncodedBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const encoding = request.headers['content-encoding'];
    if (
      !BODY_METHODS.has(request.method) ||
      encoding === undefined ||
      encoding.trim().toLowerCase() === 'identity'
    )
      return done();
    void reply.code(415).send({ error: 'unsupported content encoding; send the body uncompressed' });
  });
}
