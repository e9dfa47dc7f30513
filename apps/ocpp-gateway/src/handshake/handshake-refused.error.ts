/**
 * Why an upgrade is refused. `status` is all the charge point learns (the body is the bare status text); `reason`
 * goes to the log only, so nothing tells a caller which part of its credentials was wrong.
 */
export class HandshakeRefusedError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 429 | 503,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'HandshakeRefusedError';
  }
}
