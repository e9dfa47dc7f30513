import type { AuthorizationToken } from '@cpc/contracts';
import { authorizationToken } from '@cpc/testing';
import { classifyOcppResponse } from './classify-ocpp-response.js';
import { localListPartEnds, localListParts, sendLocalListCall } from './local-list.js';
import { schemaViolation } from './testing/ocpp-schemas.js';

const token = (n: number, overrides: Partial<AuthorizationToken> = {}): AuthorizationToken =>
  authorizationToken({
    uuid: `0190f2d6-7c1a-7000-8000-${String(n).padStart(12, '0')}`,
    idToken: `CARD-${n}`,
    ...overrides,
  });

const TOKENS = [
  token(1),
  token(2, {
    status: 'blocked',
    expiresAt: '2030-05-01T09:00:00Z',
    group: { idToken: 'FLEET-1', type: 'central' },
  }),
  token(3, { status: 'expired', type: 'e_maid', idToken: 'DE-ABC-C12345678-X' }),
];

describe('sendLocalListCall', () => {
  it('1.6: SendLocalList with idTag and idTagInfo {status, expiryDate, parentIdTag}', () => {
    const { call, omittedUuids } = sendLocalListCall('ocpp1.6', {
      listVersion: 4,
      updateType: 'full',
      tokens: TOKENS,
    });
    expect(call).toEqual({
      action: 'SendLocalList',
      payload: {
        listVersion: 4,
        updateType: 'Full',
        localAuthorizationList: [
          { idTag: 'CARD-1', idTagInfo: { status: 'Accepted' } },
          {
            idTag: 'CARD-2',
            idTagInfo: { status: 'Blocked', expiryDate: '2030-05-01T09:00:00Z', parentIdTag: 'FLEET-1' },
          },
          { idTag: 'DE-ABC-C12345678-X', idTagInfo: { status: 'Expired' } },
        ],
      },
    });
    expect(omittedUuids).toEqual([]);
    expect(schemaViolation('ocpp1.6', call.action, 'req', call.payload)).toBeUndefined();
  });

  it('2.0.1: SendLocalList with idToken {idToken, type} and idTokenInfo {status, cacheExpiryDateTime, groupIdToken}', () => {
    const { call } = sendLocalListCall('ocpp2.0.1', { listVersion: 4, updateType: 'full', tokens: TOKENS });
    expect(call).toEqual({
      action: 'SendLocalList',
      payload: {
        versionNumber: 4,
        updateType: 'Full',
        localAuthorizationList: [
          { idToken: { idToken: 'CARD-1', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } },
          {
            idToken: { idToken: 'CARD-2', type: 'ISO14443' },
            idTokenInfo: {
              status: 'Blocked',
              cacheExpiryDateTime: '2030-05-01T09:00:00Z',
              groupIdToken: { idToken: 'FLEET-1', type: 'Central' },
            },
          },
          { idToken: { idToken: 'DE-ABC-C12345678-X', type: 'eMAID' }, idTokenInfo: { status: 'Expired' } },
        ],
      },
    });
    expect(schemaViolation('ocpp2.0.1', call.action, 'req', call.payload)).toBeUndefined();
  });

  it('differential: removals are entries without info, on both protocols', () => {
    const update = {
      listVersion: 5,
      updateType: 'differential' as const,
      tokens: [token(1)],
      removals: [{ idToken: 'CARD-9', type: 'local' as const }],
    };
    const v16 = sendLocalListCall('ocpp1.6', update).call;
    expect(v16.payload).toEqual({
      listVersion: 5,
      updateType: 'Differential',
      localAuthorizationList: [{ idTag: 'CARD-1', idTagInfo: { status: 'Accepted' } }, { idTag: 'CARD-9' }],
    });
    const v201 = sendLocalListCall('ocpp2.0.1', update).call;
    expect(v201.payload).toMatchObject({
      versionNumber: 5,
      updateType: 'Differential',
      localAuthorizationList: [expect.anything(), { idToken: { idToken: 'CARD-9', type: 'Local' } }],
    });
    expect(schemaViolation('ocpp1.6', v16.action, 'req', v16.payload)).toBeUndefined();
    expect(schemaViolation('ocpp2.0.1', v201.action, 'req', v201.payload)).toBeUndefined();
  });

  it('1.6: leaves out tokens longer than an idTag and parents longer than a parentIdTag', () => {
    const long = token(7, { idToken: 'X'.repeat(21) });
    const longParent = token(8, { group: { idToken: 'G'.repeat(36), type: 'central' } });
    const { call, omittedUuids } = sendLocalListCall('ocpp1.6', {
      listVersion: 1,
      updateType: 'full',
      tokens: [long, longParent],
    });
    expect(omittedUuids).toEqual([long.uuid]);
    expect(call.payload.localAuthorizationList).toEqual([
      { idTag: 'CARD-8', idTagInfo: { status: 'Accepted' } },
    ]);
    expect(schemaViolation('ocpp1.6', call.action, 'req', call.payload)).toBeUndefined();
  });

  it('an empty full update clears the list (2.0.1 leaves the list out, as its schema wants)', () => {
    const v16 = sendLocalListCall('ocpp1.6', { listVersion: 2, updateType: 'full', tokens: [] }).call;
    const v201 = sendLocalListCall('ocpp2.0.1', { listVersion: 2, updateType: 'full', tokens: [] }).call;
    expect(v16.payload).toEqual({ listVersion: 2, updateType: 'Full', localAuthorizationList: [] });
    expect(v201.payload).toEqual({ versionNumber: 2, updateType: 'Full' });
    expect(schemaViolation('ocpp1.6', v16.action, 'req', v16.payload)).toBeUndefined();
    expect(schemaViolation('ocpp2.0.1', v201.action, 'req', v201.payload)).toBeUndefined();
  });

  it('5,000 tokens in one call still validate', () => {
    const tokens = Array.from({ length: 5000 }, (_, index) => token(index));
    for (const protocol of ['ocpp1.6', 'ocpp2.0.1'] as const) {
      const { call } = sendLocalListCall(protocol, { listVersion: 1, updateType: 'full', tokens });
      expect(call.payload.localAuthorizationList).toHaveLength(5000);
      expect(schemaViolation(protocol, call.action, 'req', call.payload)).toBeUndefined();
    }
  });

  it('refuses a version below 1 and removals in a full update', () => {
    expect(() => sendLocalListCall('ocpp1.6', { listVersion: 0, updateType: 'full', tokens: [] })).toThrow(
      TypeError,
    );
    expect(() =>
      sendLocalListCall('ocpp2.0.1', {
        listVersion: 1,
        updateType: 'full',
        tokens: [],
        removals: [{ idToken: 'A', type: 'local' }],
      }),
    ).toThrow(TypeError);
  });

  it('classifies the answers: Accepted accepts; Failed, VersionMismatch, NotSupported reject as sent', () => {
    expect(classifyOcppResponse('ocpp1.6', 'SendLocalList', { status: 'Accepted' })).toEqual({
      status: 'accepted',
      resultStatus: 'Accepted',
    });
    for (const status of ['Failed', 'VersionMismatch', 'NotSupported']) {
      expect(classifyOcppResponse('ocpp1.6', 'SendLocalList', { status })).toEqual({
        status: 'rejected',
        resultStatus: status,
      });
    }
    expect(classifyOcppResponse('ocpp2.0.1', 'SendLocalList', { status: 'VersionMismatch' })).toEqual({
      status: 'rejected',
      resultStatus: 'VersionMismatch',
    });
  });
});

describe('localListPartEnds / localListParts', () => {
  const many = (count: number) => Array.from({ length: count }, (_, index) => token(index));
  const frameBytes = (payload: unknown) =>
    Buffer.byteLength(JSON.stringify([2, '0190f2d6-7c1a-7000-8000-000000000000', 'SendLocalList', payload]));

  it('2,500 tokens at 1,000 per message: Full 1,000, then two Differential parts, one version each', () => {
    const update = { listVersion: 7, updateType: 'full' as const, tokens: many(2500) };
    const ends = localListPartEnds('ocpp2.0.1', update, { itemsPerMessage: 1000, bytesPerMessage: null });
    expect(ends).toEqual([1000, 2000, 2500]);
    const parts = localListParts(update, ends);
    expect(
      parts.map((part) => ({
        listVersion: part.listVersion,
        updateType: part.updateType,
        tokens: part.tokens.length,
        removals: part.removals?.length,
      })),
    ).toEqual([
      { listVersion: 7, updateType: 'full', tokens: 1000, removals: undefined },
      { listVersion: 8, updateType: 'differential', tokens: 1000, removals: 0 },
      { listVersion: 9, updateType: 'differential', tokens: 500, removals: 0 },
    ]);
    expect(parts.flatMap((part) => part.tokens)).toEqual(update.tokens);
    for (const part of parts) {
      const { call } = sendLocalListCall('ocpp2.0.1', part);
      expect(schemaViolation('ocpp2.0.1', call.action, 'req', call.payload)).toBeUndefined();
    }
  });

  it('a differential update: tokens then removals, a part may hold both', () => {
    const update = {
      listVersion: 3,
      updateType: 'differential' as const,
      tokens: many(5),
      removals: [
        { idToken: 'GONE-1', type: 'local' as const },
        { idToken: 'GONE-2', type: 'local' as const },
        { idToken: 'GONE-3', type: 'local' as const },
      ],
    };
    const ends = localListPartEnds('ocpp1.6', update, { itemsPerMessage: 3, bytesPerMessage: null });
    expect(ends).toEqual([3, 6, 8]);
    const parts = localListParts(update, ends);
    expect(
      parts.map((part) => [part.tokens.length, part.removals?.map((removal) => removal.idToken)]),
    ).toEqual([
      [3, []],
      [2, ['GONE-1']],
      [0, ['GONE-2', 'GONE-3']],
    ]);
    expect(parts.map((part) => part.updateType)).toEqual(['differential', 'differential', 'differential']);
  });

  it('an update without items is one empty part; within the limit, one part', () => {
    expect(
      localListPartEnds('ocpp1.6', { tokens: [] }, { itemsPerMessage: 10, bytesPerMessage: null }),
    ).toEqual([0]);
    expect(
      localListParts({ listVersion: 2, updateType: 'full', tokens: [] }, [0]).map((part) => part.tokens),
    ).toEqual([[]]);
    expect(
      localListPartEnds('ocpp2.0.1', { tokens: many(10) }, { itemsPerMessage: 10, bytesPerMessage: null }),
    ).toEqual([10]);
  });

  it('2.0.1 BytesPerMessage: the CALL frame of every part stays within it', () => {
    const update = { listVersion: 123456, updateType: 'full' as const, tokens: many(200) };
    const bytesPerMessage = 2000;
    const ends = localListPartEnds('ocpp2.0.1', update, { itemsPerMessage: 1000, bytesPerMessage });
    expect(ends.length).toBeGreaterThan(1);
    const parts = localListParts(update, ends);
    for (const part of parts) {
      const { call } = sendLocalListCall('ocpp2.0.1', part);
      expect(frameBytes(call.payload)).toBeLessThanOrEqual(bytesPerMessage);
    }
    // Not wasteful: one entry more would not have fitted in the first part.
    const first = localListParts({ ...update, tokens: update.tokens.slice(0, ends[0] + 1) }, [
      ends[0] + 1,
    ])[0];
    expect(frameBytes(sendLocalListCall('ocpp2.0.1', first).call.payload)).toBeGreaterThan(
      bytesPerMessage - 48,
    );
  });

  it('an entry larger than BytesPerMessage on its own still goes, alone', () => {
    const ends = localListPartEnds(
      'ocpp2.0.1',
      { tokens: many(3) },
      { itemsPerMessage: 10, bytesPerMessage: 10 },
    );
    expect(ends).toEqual([1, 2, 3]);
  });

  it('refuses part ends that do not cut the update', () => {
    const update = { listVersion: 1, updateType: 'full' as const, tokens: many(4) };
    expect(() => localListParts(update, [2, 3])).toThrow(TypeError);
    expect(() => localListParts(update, [3, 2, 4])).toThrow(TypeError);
    expect(() => localListParts(update, [])).toThrow(TypeError);
  });
});
