import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { ErrorCode, type TenantScopedRequest } from '@cpc/contracts';

/** An error answer of a fake service, as the real one's typed RPC error reaches the caller. Return or throw it. */
export class FakeServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Returned by an answer: send nothing, as a service that is down (the caller's request times out). */
export const NO_ANSWER: unique symbol = Symbol('no answer');

/**
 * What an answer gives: the response; undefined for a not-found error; a FakeServiceError for another error;
 * NO_ANSWER for silence. A promise of one of these holds the reply back until it settles.
 */
export type FakeServiceAnswer = unknown;

async function replyOf(answer: () => FakeServiceAnswer): Promise<object | typeof NO_ANSWER> {
  let response: unknown;
  try {
    response = await answer();
  } catch (error) {
    if (!(error instanceof FakeServiceError)) throw error;
    response = error;
  }
  if (response === NO_ANSWER) return NO_ANSWER;
  if (response === undefined) return { err: { code: ErrorCode.NotFound, message: 'not found' } };
  if (response instanceof FakeServiceError)
    return { err: { code: response.code, message: response.message } };
  return { response };
}

/**
 * Answers `subject` as a Nest microservice would (its NATS envelope: `{ id, data }` in, `{ id, response | err,
 * isDisposed }` out), standing in for a service the one under test calls. `answer` gets the request's data as sent.
 */
export function answerAsNestService<Request>(
  connection: NatsConnection,
  subject: string,
  answer: (request: Request) => FakeServiceAnswer,
): Subscription {
  return connection.subscribe(subject, {
    callback: (_error, message: Msg) => {
      const { id, data } = message.json<{ id: string; data: Request }>();
      void replyOf(() => answer(data)).then((reply) => {
        if (reply !== NO_ANSWER) message.respond(JSON.stringify({ id, ...reply, isDisposed: true }));
      });
    },
  });
}

/**
 * Answers a tenant-scoped `subject` (the api-gateway's envelope: principal and payload) as a Nest microservice would;
 * see answerAsNestService for what `answer` may give.
 */
export function serveAsNestService<Payload>(
  connection: NatsConnection,
  subject: string,
  answer: (request: TenantScopedRequest<Payload>) => FakeServiceAnswer,
): Subscription {
  return answerAsNestService<TenantScopedRequest<Payload>>(connection, subject, answer);
}
