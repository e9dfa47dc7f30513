/** Header that carries the request id from HTTP through every NATS hop, so all log lines of one request join up. */
export const REQUEST_ID_HEADER = 'x-request-id';
