import { isWellFormedSubprotocolOffer } from './subprotocol-offer.js';

describe('isWellFormedSubprotocolOffer', () => {
  it.each([
    undefined,
    'ocpp1.6',
    'ocpp2.0.1, ocpp1.6',
    'ocpp1.6,ocpp2.0.1',
    'OCPP1.6',
    'ocpp3.0 , ocpp2.0.1',
  ])('takes %p', (header) => expect(isWellFormedSubprotocolOffer(header)).toBe(true));

  it.each([
    '',
    ' ',
    'ocpp1.6, ocpp1.6',
    'ocpp1.6,,ocpp2.0.1',
    'ocpp1.6,',
    ',ocpp1.6',
    'ocpp 1.6',
    'ocpp1.6;q=1',
  ])('refuses %p', (header) => expect(isWellFormedSubprotocolOffer(header)).toBe(false));
});
