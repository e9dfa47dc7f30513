/** Header that carries the request id from HTTP through every NATS hop, so all log lines of one request join up. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Header of a NATS request: how many milliseconds its caller waits for the reply (its request timeout). The handling
 * service does not begin a request whose time has passed since it received it (its first statement): the caller has
 * answered service_unavailable by then, and work queued behind a backlog would only hold connections that new requests
 * need. A request that has begun is finished.
 */
export const REQUEST_TIMEOUT_HEADER = 'x-request-timeout-ms';
