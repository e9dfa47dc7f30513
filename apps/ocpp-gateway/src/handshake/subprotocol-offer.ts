/** A token (RFC 9110 section 5.6.2): what each subprotocol name in the offer must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Whether a `Sec-WebSocket-Protocol` offer is well formed (RFC 6455: a comma-separated list of distinct tokens), or
 * absent. The WebSocket library throws on a malformed one, which ocpp-rpc answers with 500: the gateway answers 400
 * before it gets that far, since the fault is the client's.
 */
export function isWellFormedSubprotocolOffer(header: string | undefined): boolean {
  if (header === undefined) return true;
  const offered = header.split(',').map((name) => name.trim());
  return offered.every((name) => TOKEN.test(name)) && new Set(offered).size === offered.length;
}
