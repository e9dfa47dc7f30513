import { createRequire } from 'node:module';
import { buildOcppCall, classifyOcppResponse, type ResolvedTarget } from '@cpc/ocpp-commands';
import { answerCall, refuses, type SimulatedProtocol } from './charge-point-answers.js';
import { FAULT_COMMAND_TYPES, nonceOfCall, planCommand, type PlanTarget } from './command-plan.js';

const require = createRequire(import.meta.url);
const { createValidator } = require('ocpp-rpc') as typeof import('ocpp-rpc');
const validators = {
  'ocpp1.6': createValidator('ocpp1.6', require('ocpp-rpc/lib/schemas/ocpp1_6.json') as object[]),
  'ocpp2.0.1': createValidator('ocpp2.0.1', require('ocpp-rpc/lib/schemas/ocpp2_0_1.json') as object[]),
};

const TARGETS: PlanTarget[] = [1, 2, 3].map((n) => ({
  controllerUuid: `00000000-0000-4000-8000-00000000000${n}`,
  plugUuid: `00000000-0000-4000-8000-00000000010${n}`,
}));
const OPTIONS = { runId: 'r1', validForSeconds: 60, now: new Date('2030-01-01T00:00:00Z') };
const RESOLVED: Record<'controller' | 'connector', ResolvedTarget> = {
  controller: { targetType: 'controller' },
  connector: { targetType: 'connector', connectorId: 1, evseId: 1 },
};
const PROTOCOLS: SimulatedProtocol[] = ['ocpp1.6', 'ocpp2.0.1'];

describe('planCommand', () => {
  it('gives each nonce its own idempotency key and every charge point every type', () => {
    const plans = Array.from({ length: 7 * 3 * 2 }, (_, index) => planCommand(index + 1, TARGETS, OPTIONS));
    expect(new Set(plans.map((plan) => plan.idempotencyKey)).size).toBe(plans.length);
    for (const target of TARGETS) {
      const types = new Set(
        plans.filter((plan) => plan.controllerUuid === target.controllerUuid).map((p) => p.type),
      );
      expect(types).toEqual(new Set(FAULT_COMMAND_TYPES));
    }
  });

  it('addresses the plug for connector targets and the controller otherwise, with the validity asked for', () => {
    const plans = FAULT_COMMAND_TYPES.map((_, index) => planCommand(index + 1, TARGETS.slice(0, 1), OPTIONS));
    for (const plan of plans) {
      const expected =
        plan.body.target_type === 'connector' ? TARGETS[0].plugUuid : TARGETS[0].controllerUuid;
      expect(plan.body.target_uuid).toBe(expected);
      expect(plan.body.valid_for_seconds).toBe(60);
    }
  });

  it('refuses nonces that are not positive integers and an empty list of charge points', () => {
    expect(() => planCommand(0, TARGETS, OPTIONS)).toThrow(RangeError);
    expect(() => planCommand(1.5, TARGETS, OPTIONS)).toThrow(RangeError);
    expect(() => planCommand(1, [], OPTIONS)).toThrow(RangeError);
  });
});

describe.each(PROTOCOLS)('a planned command as the platform sends it on %s', (protocol) => {
  it.each(FAULT_COMMAND_TYPES.map((type, index) => [type, index + 1]))(
    '%s: the charge point finds the nonce again, and its answer is valid and classified as expected',
    (_type, firstNonce) => {
      // Five nonces of the same type cover every remainder modulo 5: refused and accepted ones.
      for (const nonce of [0, 1, 2, 3, 4].map((round) => firstNonce + 7 * round)) {
        const plan = planCommand(nonce, TARGETS, OPTIONS);
        const call = buildOcppCall(
          protocol,
          {
            commandUuid: '5f0c9b0e-2a57-4d43-9a5e-0c1a3f6a7b21',
            type: plan.type,
            parameters: plan.body.parameters,
          },
          RESOLVED[plan.body.target_type],
        );
        expect(nonceOfCall(call.action, call.payload)).toBe(nonce);

        const answer = answerCall(protocol, call.action, call.payload);
        expect(validators[protocol].validate(`urn:${call.action}.conf`, answer.response)).toBe(true);
        expect(classifyOcppResponse(protocol, call.action, answer.response).status).toBe(answer.expected);
        const refusable = !(protocol === 'ocpp1.6' && call.action === 'UpdateFirmware');
        expect(answer.expected).toBe(refusable && refuses(nonce) ? 'rejected' : 'accepted');
      }
    },
  );
});

describe('nonceOfCall', () => {
  it('ignores calls the plan never causes and payloads without a nonce', () => {
    expect(nonceOfCall('Reset', { type: 'Soft' })).toBeUndefined();
    expect(nonceOfCall('RemoteStartTransaction', { idTag: 'someone-else' })).toBeUndefined();
    expect(nonceOfCall('CancelReservation', { reservationId: -3 })).toBeUndefined();
    expect(nonceOfCall('UpdateFirmware', null)).toBeUndefined();
  });
});
