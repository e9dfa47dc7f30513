import type { OcppProtocol } from '@cpc/contracts';
import { isJsonObject } from './field-reader.js';
import type { Ocpp16Action, Ocpp201Action } from './ocpp-call.js';
import { CommandResultError } from './result-errors.js';

/**
 * `result.status` stand-ins for replies that carry no status field: the 1.6 replies UpdateFirmware.conf (empty),
 * GetConfiguration.conf and GetDiagnostics.conf, and 2.0.1 GetVariablesResponse (one status per variable).
 */
export const RESULT_STATUS_STAND_IN = { Accepted: 'Accepted', Rejected: 'Rejected' } as const;

export type OcppAnswerClassification =
  | { status: 'accepted' | 'rejected'; resultStatus: string }
  /** The reply is not a reply to this action: the command fails with `result.error = invalid_response`. */
  | { status: 'failed'; error: typeof CommandResultError.InvalidResponse };

type AnswerRule =
  /** Accepted when `status` is one of these, rejected with any other status string. */
  | { accepted: readonly string[] }
  /** Any reply object is accepted (stand-in `Accepted`). */
  | { anyReply: true }
  /** 1.6 GetDiagnostics: accepted when `fileName` names a file, rejected when there is no diagnostics file. */
  | { fileName: true }
  /** 2.0.1 GetVariables: accepted when it reports on the variables (`getVariableResult`); per-variable statuses vary. */
  | { variableResults: true }
  /** 2.0.1 SetVariables: accepted when every `setVariableResult` is Accepted or RebootRequired (see settingsStatus). */
  | { setResults: true }
  /** GetLocalListVersion: accepted when the reply names the list version as an integer (1.6 `listVersion`, 2.0.1
   * `versionNumber`; -1 / 0 as OCPP defines them: no list support / no list); the version is in result.response. */
  | { integerField: string };

const ACCEPTED = { accepted: ['Accepted'] } as const;
const ACCEPTED_OR_SCHEDULED = { accepted: ['Accepted', 'Scheduled'] } as const;
const UNLOCKED = { accepted: ['Unlocked'] } as const;
const ACCEPTED_OR_CANCELED = { accepted: ['Accepted', 'AcceptedCanceled'] } as const;
/** A configuration change takes effect now or after a reboot. */
export const CHANGED_STATUSES = ['Accepted', 'RebootRequired'] as const;
const CHANGED = { accepted: CHANGED_STATUSES } as const;

/**
 * The command's result status of several per-setting statuses: the first one that is not a change when there is one
 * (rejected), else RebootRequired when any needs a reboot, else Accepted.
 */
export function settingsStatus(statuses: readonly string[]): { accepted: boolean; resultStatus: string } {
  const refused = statuses.find((status) => !(CHANGED_STATUSES as readonly string[]).includes(status));
  if (refused !== undefined) return { accepted: false, resultStatus: refused };
  return {
    accepted: true,
    resultStatus: statuses.includes('RebootRequired') ? 'RebootRequired' : 'Accepted',
  };
}

/** The answer table of docs/spec/ocpp-mapping.md, per protocol and action. */
const ANSWER_RULES: {
  'ocpp1.6': Record<Ocpp16Action, AnswerRule>;
  'ocpp2.0.1': Record<Ocpp201Action, AnswerRule>;
} = {
  'ocpp1.6': {
    Reset: ACCEPTED_OR_SCHEDULED,
    ClearCache: ACCEPTED,
    ChangeAvailability: ACCEPTED_OR_SCHEDULED,
    UnlockConnector: UNLOCKED,
    TriggerMessage: ACCEPTED,
    UpdateFirmware: { anyReply: true },
    GetDiagnostics: { fileName: true },
    GetConfiguration: { anyReply: true },
    ChangeConfiguration: CHANGED,
    RemoteStartTransaction: ACCEPTED,
    RemoteStopTransaction: ACCEPTED,
    ReserveNow: ACCEPTED,
    CancelReservation: ACCEPTED,
    SetChargingProfile: ACCEPTED,
    ClearChargingProfile: ACCEPTED,
    GetLocalListVersion: { integerField: 'listVersion' },
    SendLocalList: ACCEPTED,
  },
  'ocpp2.0.1': {
    Reset: ACCEPTED_OR_SCHEDULED,
    ClearCache: ACCEPTED,
    ChangeAvailability: ACCEPTED_OR_SCHEDULED,
    UnlockConnector: UNLOCKED,
    TriggerMessage: ACCEPTED,
    UpdateFirmware: ACCEPTED_OR_CANCELED,
    GetLog: ACCEPTED_OR_CANCELED,
    GetBaseReport: ACCEPTED,
    GetVariables: { variableResults: true },
    SetVariables: { setResults: true },
    RequestStartTransaction: ACCEPTED,
    RequestStopTransaction: ACCEPTED,
    ReserveNow: ACCEPTED,
    CancelReservation: ACCEPTED,
    SetChargingProfile: ACCEPTED,
    ClearChargingProfile: ACCEPTED,
    GetLocalListVersion: { integerField: 'versionNumber' },
    SendLocalList: ACCEPTED,
  },
};

const INVALID_RESPONSE: OcppAnswerClassification = {
  status: 'failed',
  error: CommandResultError.InvalidResponse,
};

function judged(accepted: boolean, resultStatus?: string): OcppAnswerClassification {
  return {
    status: accepted ? 'accepted' : 'rejected',
    resultStatus:
      resultStatus ?? (accepted ? RESULT_STATUS_STAND_IN.Accepted : RESULT_STATUS_STAND_IN.Rejected),
  };
}

/**
 * How the charge point's reply to `action` settles the command: `accepted` or `rejected` with `resultStatus` (the
 * status exactly as sent, or a RESULT_STATUS_STAND_IN), or `failed` / `invalid_response` when the reply is not an
 * object or lacks the field the decision needs. Status values outside the schema's enum count as rejected here; the
 * gateway's strict mode (ocpp-rpc) is what refuses schema-invalid replies in full.
 *
 * @throws TypeError for an action this lib never sends on that protocol (a programming error).
 */
export function classifyOcppResponse(
  protocol: OcppProtocol,
  action: string,
  response: unknown,
): OcppAnswerClassification {
  const rules: Readonly<Record<string, AnswerRule>> | undefined = Object.hasOwn(ANSWER_RULES, protocol)
    ? ANSWER_RULES[protocol]
    : undefined;
  const rule = rules && Object.hasOwn(rules, action) ? rules[action] : undefined;
  if (!rule) throw new TypeError(`${action} is not a call this platform sends on ${String(protocol)}`);
  if (!isJsonObject(response)) return INVALID_RESPONSE;
  if ('accepted' in rule) {
    const status = response.status;
    return typeof status === 'string' ? judged(rule.accepted.includes(status), status) : INVALID_RESPONSE;
  }
  if ('fileName' in rule) {
    const fileName = response.fileName;
    if (fileName !== undefined && typeof fileName !== 'string') return INVALID_RESPONSE;
    return judged(typeof fileName === 'string' && fileName !== '');
  }
  if ('setResults' in rule) {
    const results = response.setVariableResult;
    if (!Array.isArray(results) || results.length === 0) return INVALID_RESPONSE;
    const statuses = results.map((result) => (isJsonObject(result) ? result.attributeStatus : undefined));
    if (!statuses.every((status): status is string => typeof status === 'string')) return INVALID_RESPONSE;
    const { accepted, resultStatus } = settingsStatus(statuses);
    return judged(accepted, resultStatus);
  }
  if ('integerField' in rule) {
    return Number.isInteger(response[rule.integerField]) ? judged(true) : INVALID_RESPONSE;
  }
  if ('variableResults' in rule) {
    return Array.isArray(response.getVariableResult) ? judged(true) : INVALID_RESPONSE;
  }
  return judged(true);
}
