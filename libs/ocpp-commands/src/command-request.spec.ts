import {
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  type CommandType,
  TARGET_TYPES,
  type TargetType,
} from './command-model.js';
import { parseCommandRequest, validateCommandRequest } from './command-request.js';
import { schemaViolation } from './testing/ocpp-schemas.js';
import { CommandValidationErrorKey } from './validation-error-keys.js';

const NOW = new Date('2030-05-01T08:00:00Z');

function issuesOf(type: unknown, targetType: unknown, parameters?: unknown) {
  return validateCommandRequest({ type, target_type: targetType, parameters }, { now: NOW });
}

/** The issues as `errorKey@parameter`, the shape most assertions compare. */
function problems(type: unknown, targetType: unknown, parameters?: unknown): string[] {
  return issuesOf(type, targetType, parameters).map((issue) => `${issue.errorKey}@${issue.parameter}`);
}

function parsedParameters(type: CommandType, targetType: TargetType, parameters?: unknown): unknown {
  const result = parseCommandRequest({ type, target_type: targetType, parameters }, { now: NOW });
  if (!result.ok) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`);
  return result.command.parameters;
}

const profile = (overrides: Record<string, unknown> = {}, schedule: Record<string, unknown> = {}) => ({
  id: 1,
  stack_level: 0,
  purpose: 'tx_default_profile',
  kind: 'relative',
  ...overrides,
  schedule: { charging_rate_unit: 'A', periods: [{ start_period: 0, limit: 16 }], ...schedule },
});
const setProfile = (overrides?: Record<string, unknown>, schedule?: Record<string, unknown>) =>
  problems('set_charging_profile', 'connector', { charging_profile: profile(overrides, schedule) });
const P = 'parameters.charging_profile';

/** The smallest valid parameters of every type. */
const MINIMAL: Record<CommandType, Record<string, unknown> | undefined> = {
  soft_reset: undefined,
  hard_reset: undefined,
  clear_cache: undefined,
  change_availability: { availability: 'operative' },
  unlock: undefined,
  identify: undefined,
  update_firmware: { location: 'https://fw.example.com/a.bin' },
  request_diagnostics: { location: 'ftp://logs.example.com/' },
  refresh_configuration: undefined,
  remote_start: { id_tag: 'card-1' },
  remote_stop: undefined,
  reserve: { id_tag: 'card-1', expires_at: '2030-05-01T09:00:00Z' },
  cancel_reservation: { reservation_id: 1 },
  set_charging_profile: { charging_profile: profile() },
  clear_charging_profile: undefined,
  change_configuration: { settings: [{ key: 'HeartbeatInterval', value: '60' }] },
  trigger_message: { message: 'status_notification' },
  get_local_list_version: undefined,
  send_local_list: { update_type: 'full' },
};

describe('validateCommandRequest', () => {
  describe('change_configuration and trigger_message', () => {
    it('takes 1.6 keys or 2.0.1 variables, not both, and not more than MAX_CONFIGURATION_KEYS', () => {
      expect(
        problems('change_configuration', 'controller', {
          settings: [
            { key: 'HeartbeatInterval', value: '' },
            { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' },
          ],
        }),
      ).toEqual(['invalid_value@parameters.settings[1]']);
      expect(
        problems('change_configuration', 'controller', {
          settings: [
            {
              component: 'EVSE',
              evse_id: 1,
              connector_id: 1,
              variable: 'Power',
              attribute_type: 'MaxSet',
              value: '11000',
            },
            { component: 'TxCtrlr', variable: 'EVConnectionTimeOut', value: '30', connector_id: 2 },
          ],
        }),
      ).toEqual(['not_allowed@parameters.settings[1].connector_id']);
      const many = Array.from({ length: 101 }, (_, index) => ({ key: `Key${index}`, value: '1' }));
      expect(problems('change_configuration', 'controller', { settings: many })).toEqual([
        'out_of_range@parameters.settings',
      ]);
      expect(problems('change_configuration', 'controller', {})).toEqual(['required@parameters.settings']);
    });

    it('trigger_message on a connector only for connector messages', () => {
      expect(problems('trigger_message', 'connector', { message: 'heartbeat' })).toEqual([
        'not_allowed@parameters.message',
      ]);
      expect(problems('trigger_message', 'controller', { message: 'heartbeat' })).toEqual([]);
      expect(problems('trigger_message', 'controller', { message: 'Heartbeat' })).toEqual([
        'invalid_value@parameters.message',
      ]);
    });
  });

  describe('type and target_type', () => {
    it.each(
      COMMAND_TYPES.flatMap((type) => COMMAND_TARGET_TYPES[type].map((target) => [type, target] as const)),
    )('accepts %s on a %s', (type, target) => {
      const parameters =
        type === 'set_charging_profile' && target !== 'connector'
          ? {
              charging_profile: profile({
                purpose: target === 'controller' ? 'charge_point_max_profile' : 'tx_profile',
              }),
            }
          : MINIMAL[type];
      expect(issuesOf(type, target, parameters)).toEqual([]);
    });

    it.each(
      COMMAND_TYPES.flatMap((type) =>
        TARGET_TYPES.filter((target) => !COMMAND_TARGET_TYPES[type].includes(target)).map(
          (target) => [type, target] as const,
        ),
      ),
    )('refuses %s on a %s with one issue on type', (type, target) => {
      const issues = issuesOf(type, target, type === 'set_charging_profile' ? undefined : MINIMAL[type]);
      expect(issues).toEqual([
        {
          errorKey: 'invalid_target_type',
          parameter: 'type',
          message: expect.stringContaining(target) as string,
        },
      ]);
    });

    it('reports a missing, unknown or non-string type and target_type', () => {
      expect(problems(undefined, null)).toEqual(['required@type', 'required@target_type']);
      expect(problems('reboot', 'plug')).toEqual(['invalid_value@type', 'invalid_value@target_type']);
      expect(problems(3, ['controller'])).toEqual(['invalid_type@type', 'invalid_type@target_type']);
      expect(problems('Soft_Reset', 'controller')).toEqual(['invalid_value@type']);
    });

    it('still checks the parameters when only the target type is wrong', () => {
      expect(problems('remote_start', 'sensor', {})).toEqual([
        'invalid_value@target_type',
        'required@parameters.id_tag',
      ]);
    });

    it('names the allowed values in the message', () => {
      expect(issuesOf('x', 'controller')[0].message).toContain('soft_reset, hard_reset');
    });
  });

  describe('parameters', () => {
    it.each([['a string'], [[1]], [3], [true]])(
      'refuses parameters that are not an object: %j',
      (parameters) => {
        expect(problems('soft_reset', 'controller', parameters)).toEqual(['invalid_type@parameters']);
      },
    );

    it('treats absent and null parameters as none', () => {
      expect(parsedParameters('soft_reset', 'controller')).toEqual({});
      expect(parsedParameters('soft_reset', 'controller', null)).toEqual({});
      expect(problems('reserve', 'controller', null)).toEqual([
        'required@parameters.id_tag',
        'required@parameters.expires_at',
      ]);
    });

    it.each(['soft_reset', 'hard_reset', 'clear_cache', 'unlock', 'identify', 'remote_stop'] as const)(
      'refuses any parameter of %s',
      (type) => {
        const target = COMMAND_TARGET_TYPES[type][0];
        expect(problems(type, target, { force: true, delay: 1 })).toEqual([
          'unknown_field@parameters.force',
          'unknown_field@parameters.delay',
        ]);
      },
    );

    it('reports unknown fields at every depth', () => {
      const charging_profile = {
        ...profile({ label: 'x' }, { phase_to_use: 1 }),
      };
      charging_profile.schedule.periods = [{ start_period: 0, limit: 16, phase: 2 } as never];
      expect(problems('set_charging_profile', 'connector', { charging_profile, connector: 1 })).toEqual([
        'unknown_field@parameters.connector',
        `unknown_field@${P}.label`,
        `unknown_field@${P}.schedule.phase_to_use`,
        `unknown_field@${P}.schedule.periods[0].phase`,
      ]);
    });

    it('reports one issue per problem', () => {
      const issues = issuesOf('update_firmware', 'controller', {
        retrieve_at: 'tomorrow',
        retries: -1,
        retry_interval: '60',
        checksum: 'abc',
      });
      expect(issues.map((issue) => `${issue.errorKey}@${issue.parameter}`)).toEqual([
        'unknown_field@parameters.checksum',
        'required@parameters.location',
        'invalid_date_time@parameters.retrieve_at',
        'out_of_range@parameters.retries',
        'invalid_type@parameters.retry_interval',
      ]);
      for (const issue of issues) expect(issue.message).toContain(issue.parameter);
    });
  });

  describe('change_availability', () => {
    it('needs availability operative or inoperative', () => {
      expect(problems('change_availability', 'connector', {})).toEqual(['required@parameters.availability']);
      expect(problems('change_availability', 'connector', { availability: 'Operative' })).toEqual([
        'invalid_value@parameters.availability',
      ]);
      expect(parsedParameters('change_availability', 'controller', { availability: 'inoperative' })).toEqual({
        availability: 'inoperative',
      });
    });
  });

  describe('id_tag (remote_start, reserve)', () => {
    it.each(['remote_start', 'reserve'] as const)('%s: at most 20 printable ASCII characters', (type) => {
      const base = type === 'reserve' ? { expires_at: '2030-05-01T09:00:00Z' } : {};
      const check = (id_tag: unknown) => problems(type, 'connector', { ...base, id_tag });
      expect(check('A'.repeat(20))).toEqual([]);
      expect(check('A'.repeat(21))).toEqual(['invalid_length@parameters.id_tag']);
      expect(check(undefined)).toEqual(['required@parameters.id_tag']);
      expect(check('')).toEqual(['invalid_value@parameters.id_tag']);
      expect(check('   ')).toEqual(['invalid_value@parameters.id_tag']);
      expect(check('kärtchen')).toEqual(['invalid_value@parameters.id_tag']);
      expect(check(12345)).toEqual(['invalid_type@parameters.id_tag']);
    });
  });

  describe('locations (update_firmware, request_diagnostics)', () => {
    const accepted = [
      'https://fw.example.com/cp/v2.1.0.bin?sig=a%2Fb&x=1',
      'http://10.0.0.5:8080/fw.bin',
      'ftp://user:secret@files.example.com/fw/',
      'ftps://files.example.com/x',
      'sftp://files.example.com:2222/upload/',
      'https://[2001:db8::1]/fw.bin',
    ];
    it.each(accepted)('accepts %s, which the OCPP 1.6 uri format accepts too', (location) => {
      expect(problems('update_firmware', 'controller', { location })).toEqual([]);
      expect(problems('request_diagnostics', 'controller', { location })).toEqual([]);
      const payload = { location, retrieveDate: '2030-05-01T08:00:00Z' };
      expect(schemaViolation('ocpp1.6', 'UpdateFirmware', 'req', payload)).toBeUndefined();
    });

    it.each([
      'fw.example.com/a.bin',
      '/fw/a.bin',
      'mailto:ops@example.com',
      'file:///etc/passwd',
      'https://fw.example.com/a file.bin',
      'https://fw.example.com/%zz',
      'https://',
      'https:fw.example.com',
      'https://fw.example.com/ä.bin',
    ])('refuses %j', (location) => {
      expect(problems('update_firmware', 'controller', { location })).toEqual([
        'invalid_uri@parameters.location',
      ]);
    });

    it('refuses locations longer than 512 characters (2.0.1 limit)', () => {
      const location = `https://fw.example.com/${'a'.repeat(512 - 23)}`;
      expect(location).toHaveLength(512);
      expect(problems('request_diagnostics', 'controller', { location })).toEqual([]);
      expect(problems('request_diagnostics', 'controller', { location: `${location}b` })).toEqual([
        'invalid_length@parameters.location',
      ]);
    });
  });

  describe('date-times', () => {
    const firmware = (retrieve_at: unknown) =>
      parseCommandRequest(
        {
          type: 'update_firmware',
          target_type: 'controller',
          parameters: { location: 'https://x.example/f', retrieve_at },
        },
        { now: NOW },
      );

    it.each([
      ['2030-05-01T10:00:00+02:00', '2030-05-01T08:00:00Z'],
      ['2030-05-01T08:00:00Z', '2030-05-01T08:00:00Z'],
      ['2030-05-01t08:00:00z', '2030-05-01T08:00:00Z'],
      ['2030-05-01T08:00:00.5Z', '2030-05-01T08:00:00.500Z'],
      ['2030-05-01T08:00:00.123456-01:30', '2030-05-01T09:30:00.123Z'],
      ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00Z'],
    ])('normalizes %s to UTC: %s', (given, normalized) => {
      const result = firmware(given);
      expect(result.ok && result.command.parameters).toEqual({
        location: 'https://x.example/f',
        retrieve_at: normalized,
      });
    });

    it.each([
      '2030-05-01',
      '2030-05-01T08:00Z',
      '2030-05-01T08:00:00',
      '2030-05-01 08:00:00Z',
      '2030-02-30T08:00:00Z',
      '2029-02-29T08:00:00Z',
      '2030-13-01T08:00:00Z',
      '2030-05-01T24:00:00Z',
      '2030-05-01T08:60:00Z',
      '2030-05-01T08:00:60Z',
      '2030-05-01T08:00:00+24:00',
      '1714550400',
    ])('refuses %j', (given) => {
      expect(firmware(given).issues).toEqual([
        expect.objectContaining({ errorKey: 'invalid_date_time', parameter: 'parameters.retrieve_at' }),
      ]);
    });

    it('refuses a non-string date-time', () => {
      expect(firmware(1714550400).issues).toEqual([expect.objectContaining({ errorKey: 'invalid_type' })]);
    });

    it('refuses ranges that end before they start', () => {
      const fw = { location: 'https://x.example/f' };
      expect(
        problems('update_firmware', 'controller', {
          ...fw,
          retrieve_at: '2030-05-02T00:00:00Z',
          install_at: '2030-05-01T23:59:59Z',
        }),
      ).toEqual(['invalid_time_range@parameters.install_at']);
      expect(
        problems('update_firmware', 'controller', {
          ...fw,
          retrieve_at: '2030-05-02T00:00:00Z',
          install_at: '2030-05-02T00:00:00Z',
        }),
      ).toEqual([]);
      expect(
        problems('request_diagnostics', 'controller', {
          ...fw,
          start_time: '2030-05-02T00:00:00Z',
          stop_time: '2030-05-01T00:00:00Z',
        }),
      ).toEqual(['invalid_time_range@parameters.stop_time']);
      expect(setProfile({ valid_from: '2030-05-02T00:00:00Z', valid_to: '2030-05-01T00:00:00Z' })).toEqual([
        `invalid_time_range@${P}.valid_to`,
      ]);
    });
  });

  describe('integers', () => {
    it.each([
      [3, []],
      [0, []],
      [2147483647, []],
      [-1, ['out_of_range@parameters.retries']],
      [2147483648, ['out_of_range@parameters.retries']],
      [1.5, ['invalid_type@parameters.retries']],
      ['3', ['invalid_type@parameters.retries']],
    ])('retries %j → %j', (retries, expected) => {
      expect(problems('update_firmware', 'controller', { location: 'https://x.example/f', retries })).toEqual(
        expected,
      );
    });

    it('applies the same rules to reservation ids', () => {
      expect(problems('cancel_reservation', 'controller', {})).toEqual([
        'required@parameters.reservation_id',
      ]);
      expect(problems('cancel_reservation', 'controller', { reservation_id: -5 })).toEqual([
        'out_of_range@parameters.reservation_id',
      ]);
      expect(problems('cancel_reservation', 'controller', { reservation_id: '5' })).toEqual([
        'invalid_type@parameters.reservation_id',
      ]);
    });
  });

  describe('refresh_configuration', () => {
    it('normalizes keys: distinct, in order; none or empty = the whole configuration', () => {
      expect(parsedParameters('refresh_configuration', 'controller', { keys: ['B', 'A', 'B'] })).toEqual({
        keys: ['B', 'A'],
      });
      expect(parsedParameters('refresh_configuration', 'controller', { keys: [] })).toEqual({});
      expect(parsedParameters('refresh_configuration', 'controller', {})).toEqual({});
    });

    it('checks every key', () => {
      expect(problems('refresh_configuration', 'controller', { keys: 'HeartbeatInterval' })).toEqual([
        'invalid_type@parameters.keys',
      ]);
      expect(
        problems('refresh_configuration', 'controller', {
          keys: ['K'.repeat(50), 'K'.repeat(51), 'a b', 7, null, ''],
        }),
      ).toEqual([
        'invalid_length@parameters.keys[1]',
        'invalid_value@parameters.keys[2]',
        'invalid_type@parameters.keys[3]',
        'required@parameters.keys[4]',
        'invalid_value@parameters.keys[5]',
      ]);
    });

    it('takes at most 100 keys', () => {
      const keys = Array.from({ length: 101 }, (_, index) => `Key${index}`);
      expect(problems('refresh_configuration', 'controller', { keys: keys.slice(0, 100) })).toEqual([]);
      expect(problems('refresh_configuration', 'controller', { keys })).toEqual([
        'out_of_range@parameters.keys',
      ]);
    });
  });

  describe('send_local_list', () => {
    const A = '0B7F3B4E-1C2D-4E5F-8A9B-0C1D2E3F4A5B';
    const B = '1b7f3b4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

    it('needs update_type, takes distinct token uuids (lower case, in order) and the mismatch switch', () => {
      expect(parsedParameters('send_local_list', 'controller', { update_type: 'full' })).toEqual({
        update_type: 'full',
      });
      expect(
        parsedParameters('send_local_list', 'controller', {
          update_type: 'differential',
          id_token_uuids: [B, A, A.toLowerCase()],
          full_on_version_mismatch: true,
        }),
      ).toEqual({
        update_type: 'differential',
        id_token_uuids: [B, A.toLowerCase()],
        full_on_version_mismatch: true,
      });
      expect(
        parsedParameters('send_local_list', 'controller', { update_type: 'full', id_token_uuids: [] }),
      ).toEqual({ update_type: 'full', id_token_uuids: [] });
    });

    it('reports each bad field', () => {
      expect(problems('send_local_list', 'controller', {})).toEqual(['required@parameters.update_type']);
      expect(
        problems('send_local_list', 'controller', {
          update_type: 'partial',
          id_token_uuids: [A, 'not-a-uuid', 7],
          full_on_version_mismatch: 'yes',
          version: 3,
        }),
      ).toEqual([
        'unknown_field@parameters.version',
        'invalid_value@parameters.update_type',
        'invalid_type@parameters.full_on_version_mismatch',
        'invalid_value@parameters.id_token_uuids[1]',
        'invalid_type@parameters.id_token_uuids[2]',
      ]);
      expect(problems('send_local_list', 'connector', { update_type: 'full' })).toEqual([
        'invalid_target_type@type',
      ]);
      const many = Array.from({ length: 10_001 }, () => A);
      expect(
        problems('send_local_list', 'controller', { update_type: 'full', id_token_uuids: many }),
      ).toEqual(['out_of_range@parameters.id_token_uuids']);
    });
  });

  describe('reserve', () => {
    it('needs an expiry in the future', () => {
      const reserve = (expires_at: unknown) =>
        problems('reserve', 'connector', { id_tag: 'card-1', expires_at });
      expect(reserve('2030-05-01T08:00:01Z')).toEqual([]);
      expect(reserve('2030-05-01T08:00:00Z')).toEqual(['not_in_future@parameters.expires_at']);
      expect(reserve('2030-05-01T10:00:00+03:00')).toEqual(['not_in_future@parameters.expires_at']);
      expect(reserve(undefined)).toEqual(['required@parameters.expires_at']);
    });

    it('measures the future against the current time by default', () => {
      const request = {
        type: 'reserve',
        target_type: 'controller',
        parameters: { id_tag: 'a', expires_at: '2001-01-01T00:00:00Z' },
      };
      expect(validateCommandRequest(request).map((issue) => issue.errorKey)).toEqual(['not_in_future']);
    });

    it('keeps a given reservation id', () => {
      expect(
        parsedParameters('reserve', 'controller', {
          id_tag: 'a',
          expires_at: '2030-06-01T00:00:00Z',
          reservation_id: 9,
        }),
      ).toEqual({ id_tag: 'a', expires_at: '2030-06-01T00:00:00Z', reservation_id: 9 });
    });
  });

  describe('charging profiles', () => {
    it('normalizes a full profile and drops nulls', () => {
      const charging_profile = profile(
        { kind: 'recurring', recurrency_kind: 'weekly', valid_from: null },
        {
          start_schedule: '2030-05-01T00:00:00+02:00',
          periods: [{ start_period: 0, limit: 0.1 + 0.2, number_phases: null }],
        },
      );
      expect(parsedParameters('set_charging_profile', 'connector', { charging_profile })).toEqual({
        charging_profile: {
          id: 1,
          stack_level: 0,
          purpose: 'tx_default_profile',
          kind: 'recurring',
          recurrency_kind: 'weekly',
          schedule: {
            charging_rate_unit: 'A',
            start_schedule: '2030-04-30T22:00:00Z',
            periods: [{ start_period: 0, limit: 0.3 }],
          },
        },
      });
    });

    it('needs every required field', () => {
      expect(problems('set_charging_profile', 'connector', {})).toEqual([
        'required@parameters.charging_profile',
      ]);
      expect(problems('set_charging_profile', 'connector', { charging_profile: 'max' })).toEqual([
        `invalid_type@${P}`,
      ]);
      expect(problems('set_charging_profile', 'connector', { charging_profile: {} })).toEqual([
        `required@${P}.id`,
        `required@${P}.stack_level`,
        `required@${P}.purpose`,
        `required@${P}.kind`,
        `required@${P}.schedule`,
      ]);
      expect(
        problems('set_charging_profile', 'connector', { charging_profile: { ...profile(), schedule: {} } }),
      ).toEqual([`required@${P}.schedule.charging_rate_unit`, `required@${P}.schedule.periods`]);
    });

    it('checks the enumerations', () => {
      expect(setProfile({ purpose: 'TxDefaultProfile', kind: 'once' }, { charging_rate_unit: 'kW' })).toEqual(
        [
          `invalid_value@${P}.purpose`,
          `invalid_value@${P}.kind`,
          `invalid_value@${P}.schedule.charging_rate_unit`,
        ],
      );
      expect(setProfile({ purpose: 'charging_station_external_constraints' })).toEqual([
        `invalid_value@${P}.purpose`,
      ]);
    });

    it('needs recurrency_kind exactly for recurring profiles', () => {
      const start = { start_schedule: '2030-05-01T00:00:00Z' };
      expect(setProfile({ kind: 'recurring' }, start)).toEqual([`required@${P}.recurrency_kind`]);
      expect(setProfile({ kind: 'recurring', recurrency_kind: 'monthly' }, start)).toEqual([
        `invalid_value@${P}.recurrency_kind`,
      ]);
      expect(setProfile({ kind: 'absolute', recurrency_kind: 'daily' }, start)).toEqual([
        `not_allowed@${P}.recurrency_kind`,
      ]);
    });

    it('needs start_schedule for absolute and recurring profiles and refuses it for relative ones (2.0.1 rule)', () => {
      expect(setProfile({ kind: 'absolute' })).toEqual([`required@${P}.schedule.start_schedule`]);
      expect(setProfile({ kind: 'recurring', recurrency_kind: 'daily' })).toEqual([
        `required@${P}.schedule.start_schedule`,
      ]);
      expect(setProfile({ kind: 'relative' }, { start_schedule: '2030-05-01T00:00:00Z' })).toEqual([
        `not_allowed@${P}.schedule.start_schedule`,
      ]);
    });

    it('checks the periods: 1 to 1024, starting at 0, increasing', () => {
      const periods = (list: unknown) => setProfile({}, { periods: list });
      expect(periods([])).toEqual([`out_of_range@${P}.schedule.periods`]);
      expect(
        periods(Array.from({ length: 1025 }, (_, index) => ({ start_period: index, limit: 1 }))),
      ).toEqual([`out_of_range@${P}.schedule.periods`]);
      expect(
        periods(Array.from({ length: 1024 }, (_, index) => ({ start_period: index, limit: 1 }))),
      ).toEqual([]);
      expect(periods([{ start_period: 60, limit: 1 }])).toEqual([
        `invalid_value@${P}.schedule.periods[0].start_period`,
      ]);
      expect(
        periods([
          { start_period: 0, limit: 1 },
          { start_period: 600, limit: 2 },
          { start_period: 600, limit: 3 },
          { start_period: 300, limit: 3 },
        ]),
      ).toEqual([
        `invalid_value@${P}.schedule.periods[2].start_period`,
        `invalid_value@${P}.schedule.periods[3].start_period`,
      ]);
      expect(periods([{ limit: 1 }, 'x', null])).toEqual([
        `required@${P}.schedule.periods[0].start_period`,
        `invalid_type@${P}.schedule.periods[1]`,
        `required@${P}.schedule.periods[2]`,
      ]);
    });

    it('checks limits: non-negative, at most one decimal (1.6 multipleOf 0.1)', () => {
      const limit = (value: unknown) => setProfile({}, { periods: [{ start_period: 0, limit: value }] });
      expect(limit(16.1)).toEqual([]);
      expect(limit(0)).toEqual([]);
      expect(limit(16.05)).toEqual([`invalid_value@${P}.schedule.periods[0].limit`]);
      expect(limit(-1)).toEqual([`out_of_range@${P}.schedule.periods[0].limit`]);
      expect(limit('16')).toEqual([`invalid_type@${P}.schedule.periods[0].limit`]);
      expect(limit(undefined)).toEqual([`required@${P}.schedule.periods[0].limit`]);
      expect(setProfile({}, { min_charging_rate: 6.25 })).toEqual([
        `invalid_value@${P}.schedule.min_charging_rate`,
      ]);
    });

    it('checks number_phases 1 to 3, duration and stack_level non-negative', () => {
      expect(setProfile({}, { periods: [{ start_period: 0, limit: 1, number_phases: 4 }] })).toEqual([
        `out_of_range@${P}.schedule.periods[0].number_phases`,
      ]);
      expect(setProfile({ stack_level: -1 }, { duration: -60 })).toEqual([
        `out_of_range@${P}.stack_level`,
        `out_of_range@${P}.schedule.duration`,
      ]);
    });

    it.each([
      ['controller', 'charge_point_max_profile', true],
      ['controller', 'tx_default_profile', true],
      ['controller', 'tx_profile', false],
      ['connector', 'charge_point_max_profile', false],
      ['connector', 'tx_default_profile', true],
      ['connector', 'tx_profile', false],
      ['charging_session', 'charge_point_max_profile', false],
      ['charging_session', 'tx_default_profile', false],
      ['charging_session', 'tx_profile', true],
    ] as const)('set_charging_profile on a %s with purpose %s: allowed %s', (target, purpose, allowed) => {
      expect(problems('set_charging_profile', target, { charging_profile: profile({ purpose }) })).toEqual(
        allowed ? [] : [`not_allowed@${P}.purpose`],
      );
    });

    it('allows only transaction profiles in a remote start', () => {
      const start = (purpose: string) =>
        problems('remote_start', 'connector', { id_tag: 'a', charging_profile: profile({ purpose }) });
      expect(start('tx_profile')).toEqual([]);
      expect(start('tx_default_profile')).toEqual([`not_allowed@${P}.purpose`]);
    });
  });

  describe('clear_charging_profile', () => {
    it('takes optional id, purpose and stack_level', () => {
      expect(
        parsedParameters('clear_charging_profile', 'connector', {
          id: 3,
          purpose: 'tx_profile',
          stack_level: 2,
        }),
      ).toEqual({
        id: 3,
        purpose: 'tx_profile',
        stack_level: 2,
      });
      expect(
        problems('clear_charging_profile', 'controller', { id: -3, purpose: 'all', stack_level: 'x' }),
      ).toEqual([
        'out_of_range@parameters.id',
        'invalid_value@parameters.purpose',
        'invalid_type@parameters.stack_level',
      ]);
    });
  });

  it('documents every errorKey it reports', () => {
    const reported = new Set<string>(Object.values(CommandValidationErrorKey));
    const seen = [
      ...issuesOf(undefined, 'x'),
      ...issuesOf('unlock', 'controller', { a: 1 }),
      ...issuesOf('reserve', 'controller', { id_tag: 'x'.repeat(21), expires_at: '2001-01-01T00:00:00Z' }),
    ];
    for (const issue of seen) expect(reported).toContain(issue.errorKey);
  });
});
