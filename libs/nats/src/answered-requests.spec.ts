import { jest } from '@jest/globals';
import { RequestOne } from '@nats-io/nats-core/internal';
import { errors, type Msg } from '@nats-io/transport-node';
import { settleAnsweredRequestsQuietly } from './answered-requests.js';

/** A request as nats.js makes one, on a stand-in for the connection's inbox multiplexer. */
function request() {
  const mux = { cancel: jest.fn() };
  const made = new RequestOne(mux as never, 'subject', { timeout: 60_000 }, false);
  const cancel = jest.spyOn(made, 'cancel');
  const answer = (made as unknown as { deferred: Promise<Msg> }).deferred;
  return { made, mux, cancel, answer };
}

describe('settleAnsweredRequestsQuietly (checked against the installed nats.js)', () => {
  beforeAll(() => settleAnsweredRequestsQuietly());

  it('resolves an answered request and leaves the inbox without cancelling it (no RequestError built)', async () => {
    const { made, mux, cancel, answer } = request();
    const message = { data: new Uint8Array() } as unknown as Msg;
    made.resolver(null, message);
    await expect(answer).resolves.toBe(message);
    expect(mux.cancel).toHaveBeenCalledWith(made);
    expect(cancel).not.toHaveBeenCalled();
  });

  it('leaves a failed request to nats.js: rejected with its RequestError, and cancelled', async () => {
    const { made, mux, cancel, answer } = request();
    made.resolver(new Error('no responders'), undefined as unknown as Msg);
    await expect(answer).rejects.toBeInstanceOf(errors.RequestError);
    expect(cancel).toHaveBeenCalled();
    expect(mux.cancel).toHaveBeenCalledWith(made);
  });
});
