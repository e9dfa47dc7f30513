import { authorizationToken } from '@cpc/testing';
import { decide, findToken, idTagInfo, idTokenInfo } from './authorization-answers.js';

const HERE = '11111111-1111-4111-8111-111111111111';
const THERE = '22222222-2222-4222-8222-222222222222';
const NOW = new Date('2030-06-01T12:00:00Z');

const token = authorizationToken;
const strict = { mode: 'strict' as const, locationUuid: HERE, now: NOW, tokensAvailable: true };

describe('authorization answers', () => {
  it('decides a known token from its status, then its expiry, then its locations, in both modes', () => {
    for (const mode of ['strict', 'accept_unknown'] as const) {
      const context = { ...strict, mode };
      expect(decide(token(), context).result).toBe('accepted');
      expect(decide(token({ status: 'blocked' }), context).result).toBe('blocked');
      expect(decide(token({ status: 'invalid' }), context).result).toBe('invalid');
      expect(decide(token({ status: 'expired' }), context).result).toBe('expired');
      expect(decide(token({ expiresAt: '2030-06-01T12:00:00Z' }), context)).toMatchObject({
        result: 'expired',
        reason: 'expiry_passed',
      });
      expect(decide(token({ expiresAt: '2030-06-01T12:00:01Z' }), context).result).toBe('accepted');
      expect(decide(token({ allowedLocationUuids: [THERE] }), context).result).toBe('not_at_this_location');
      expect(decide(token({ allowedLocationUuids: [THERE, HERE] }), context).result).toBe('accepted');
    }
  });

  it('accepts an unknown token only in accept_unknown', () => {
    expect(decide(undefined, strict)).toMatchObject({ result: 'unknown', reason: 'unknown_token' });
    expect(decide(undefined, { ...strict, tokensAvailable: false }).reason).toBe('tokens_unavailable');
    expect(decide(undefined, { ...strict, mode: 'accept_unknown' })).toMatchObject({
      result: 'accepted',
      reason: 'unknown_token_accepted',
    });
  });

  it('finds a 2.0.1 token by its type and a 1.6 idTag by the preferred type', () => {
    const rfid = token({ type: 'iso14443' });
    const central = token({ type: 'central', uuid: '44444444-4444-4444-8444-444444444444' });
    expect(findToken([central, rfid], 'Central')).toBe(central);
    expect(findToken([central, rfid], 'eMAID')).toBeUndefined();
    expect(findToken([central, rfid], null)).toBe(rfid);
  });

  it('words the decision as each OCPP version defines it', () => {
    const grouped = decide(
      token({ expiresAt: '2031-01-01T00:00:00.000Z', group: { idToken: 'FLEET', type: 'central' } }),
      strict,
    );
    expect(idTagInfo(grouped)).toEqual({
      status: 'Accepted',
      expiryDate: '2031-01-01T00:00:00.000Z',
      parentIdTag: 'FLEET',
    });
    expect(idTokenInfo(grouped)).toEqual({
      status: 'Accepted',
      cacheExpiryDateTime: '2031-01-01T00:00:00.000Z',
      groupIdToken: { idToken: 'FLEET', type: 'Central' },
    });
    expect(idTagInfo(decide(undefined, strict))).toEqual({ status: 'Invalid' });
    expect(idTokenInfo(decide(undefined, strict))).toEqual({ status: 'Unknown' });
    const elsewhere = decide(token({ allowedLocationUuids: [THERE] }), strict);
    expect(idTagInfo(elsewhere)).toEqual({ status: 'Invalid' });
    expect(idTokenInfo(elsewhere)).toEqual({ status: 'NotAtThisLocation' });
    // A 1.6 parentIdTag is at most 20 characters: a longer group value is left out.
    const longGroup = decide(token({ group: { idToken: 'G'.repeat(21), type: 'central' } }), strict);
    expect(idTagInfo(longGroup)).toEqual({ status: 'Accepted' });
  });
});
