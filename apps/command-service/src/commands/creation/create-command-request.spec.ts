import { judgeCreateRequest, judgeIdempotencyKey } from './create-command-request.js';

const now = new Date('2026-01-01T00:00:00Z');
const target = '0b5f9a2e-3c57-4d8a-9a71-2f0e4f1d8c11';

describe('judgeCreateRequest', () => {
  it('accepts a valid body, defaults valid_for_seconds to 0 and lower-cases the target', () => {
    expect(
      judgeCreateRequest(
        { type: 'soft_reset', target_type: 'controller', target_uuid: target.toUpperCase() },
        now,
      ),
    ).toEqual({
      ok: true,
      request: {
        command: { type: 'soft_reset', target_type: 'controller', parameters: {} },
        targetUuid: target,
        validForSeconds: 0,
      },
    });
    const judged = judgeCreateRequest(
      {
        type: 'unlock',
        target_type: 'connector',
        target_uuid: target,
        valid_for_seconds: 86_400,
        parameters: null,
      },
      now,
    );
    expect(judged.ok && judged.request.validForSeconds).toBe(86_400);
  });

  it('answers a target_uuid that is no UUID with the one errorKey of malformed UUIDs', () => {
    const judged = judgeCreateRequest(
      { type: 'soft_reset', target_type: 'controller', target_uuid: 'cp-1' },
      now,
    );
    expect(judged).toEqual({
      ok: false,
      issues: [{ parameter: 'target_uuid', errorKey: 'invalid_uuid', message: 'target_uuid must be a UUID' }],
    });
  });

  it('reports each problem once, on its parameter', () => {
    const judged = judgeCreateRequest(
      { type: 'soft_reset', target_type: 'controller', target_uuid: 5, valid_for_seconds: '60', extra: true },
      now,
    );
    expect(judged).toEqual({
      ok: false,
      issues: [
        { parameter: 'extra', errorKey: 'unknown_field', message: 'extra is not a known field' },
        { parameter: 'target_uuid', errorKey: 'invalid_type', message: 'target_uuid must be a string' },
        {
          parameter: 'valid_for_seconds',
          errorKey: 'invalid_type',
          message: 'valid_for_seconds must be an integer',
        },
      ],
    });
    for (const validFor of [-1, 86_401]) {
      const outOfRange = judgeCreateRequest(
        { type: 'soft_reset', target_type: 'controller', target_uuid: target, valid_for_seconds: validFor },
        now,
      );
      expect(!outOfRange.ok && outOfRange.issues.map((issue) => issue.errorKey)).toEqual(['out_of_range']);
    }
  });

  it('refuses a body that is not an object as one problem', () => {
    for (const body of [undefined, null, [], 'x', 1]) {
      expect(judgeCreateRequest(body, now)).toEqual({
        ok: false,
        issues: [{ parameter: 'body', errorKey: 'invalid_type', message: 'the body must be a JSON object' }],
      });
    }
  });
});

describe('judgeIdempotencyKey', () => {
  it('takes an absent key or 1 to 255 visible ASCII characters', () => {
    expect(judgeIdempotencyKey(undefined)).toEqual([]);
    expect(judgeIdempotencyKey('a')).toEqual([]);
    expect(judgeIdempotencyKey('k'.repeat(255))).toEqual([]);
    for (const key of ['', 'a b', 'k'.repeat(256), 'schlüssel', 5]) {
      expect(judgeIdempotencyKey(key)).toEqual([expect.objectContaining({ parameter: 'Idempotency-Key' })]);
    }
  });
});
