import type { AuthorizationToken } from '@cpc/contracts';
import { authorizationToken } from '@cpc/testing';
import { classifyOcppResponse } from './classify-ocpp-response.js';
import { sendLocalListCall } from './local-list.js';
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
