import type { ConfigurationSettingResult, OcppProtocol } from '@cpc/contracts';
import { MAX_CONFIGURATION_SETTINGS } from './command-parameters.js';
import { isJsonObject, type JsonObject } from './field-reader.js';
import type { OcppCall } from './ocpp-call.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const integer = (value: unknown): number | undefined =>
  Number.isInteger(value) ? (value as number) : undefined;
const object = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});

/** A 2.0.1 component/variable/attribute type as a setting (without value and status), fields absent when not given. */
function variableOf(item: JsonObject): Omit<ConfigurationSettingResult, 'value' | 'status'> {
  const component = object(item.component);
  const evse = isJsonObject(component.evse) ? component.evse : undefined;
  const variable = object(item.variable);
  const fields = {
    component: text(component.name),
    component_instance: text(component.instance),
    evse_id: evse ? integer(evse.id) : undefined,
    connector_id: evse ? integer(evse.connectorId) : undefined,
    variable: text(variable.name),
    variable_instance: text(variable.instance),
    attribute_type: text(item.attributeType) ?? 'Actual',
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const identity = (setting: Omit<ConfigurationSettingResult, 'value' | 'status'>) =>
  JSON.stringify([
    setting.component,
    setting.component_instance,
    setting.evse_id,
    setting.connector_id,
    setting.variable,
    setting.variable_instance,
    setting.attribute_type,
  ]);

/**
 * What a change_configuration changed: each setting sent with the charge point's status for it, in the order sent.
 * 1.6: one ChangeConfiguration per key, `responses[i]` answering `calls[i]`. 2.0.1: one SetVariables per part of the
 * request (see splitVariableCall), each setVariableResult matched to a setVariableData of the same call by component,
 * variable and attribute type (a setting the answer does not mention gets status `Missing`). A call the charge point
 * did not answer gives its settings the status in `unanswered` (by call index, see UNANSWERED_SETTING_STATUS).
 */
export function settingResults(
  protocol: OcppProtocol,
  calls: readonly OcppCall[],
  responses: readonly unknown[],
  unanswered: ReadonlyMap<number, string> = new Map(),
): ConfigurationSettingResult[] {
  if (protocol === 'ocpp1.6') {
    return calls.map((call, index) => ({
      key: String(call.payload.key),
      value: String(call.payload.value),
      status: unanswered.get(index) ?? text(object(responses[index]).status) ?? 'Missing',
    }));
  }
  return calls.flatMap((call, index) => {
    const statuses = new Map<string, string>();
    for (const result of listOf(responses[index], 'setVariableResult')) {
      const item = object(result);
      const status = text(item.attributeStatus);
      if (status !== undefined) statuses.set(identity(variableOf(item)), status);
    }
    return listOf(call.payload, 'setVariableData').map((entry) => {
      const item = object(entry);
      const setting = variableOf(item);
      return {
        ...setting,
        value: String(item.attributeValue),
        status: unanswered.get(index) ?? statuses.get(identity(setting)) ?? 'Missing',
      };
    });
  });
}

/** The array under `field` of a payload, or none. */
function listOf(payload: unknown, field: string): unknown[] {
  const value = object(payload)[field];
  return Array.isArray(value) ? value : [];
}

/**
 * The status of a setting whose call got no answer (result.settings[].status), by how the call ended: no reply in
 * time, a CALLERROR, a reply that is not one, the connection dropped while it was out, or not sent at all because
 * the connection had dropped before.
 */
export const UNANSWERED_SETTING_STATUS = {
  timeout: 'Timeout',
  call_error: 'CallError',
  invalid_response: 'InvalidResponse',
  connection_lost: 'ConnectionLost',
  not_sent: 'NotSent',
} as const;

/** The 2.0.1 calls whose list of variables may be split over several messages, and that list's field. */
const VARIABLE_LISTS = {
  SetVariables: { request: 'setVariableData', response: 'setVariableResult' },
  GetVariables: { request: 'getVariableData', response: 'getVariableResult' },
} as const;

/**
 * How much one 2.0.1 SetVariables/GetVariables may carry, as the charging station reports it in its device model
 * (`DeviceDataCtrlr.ItemsPerMessage[…]` / `BytesPerMessage[…]`); null when not known (see DEFAULT_ITEMS_PER_MESSAGE).
 */
export interface MessageLimits {
  itemsPerMessage: number | null;
  bytesPerMessage: number | null;
}

/**
 * Variables per SetVariables/GetVariables while the station's ItemsPerMessage is not known: the settings a
 * change_configuration may carry then (MAX_CONFIGURATION_SETTINGS), so such a change is one message as before. An
 * unknown BytesPerMessage sets no byte limit (20 variables of at most 1,000-character values stay near 25 kB).
 */
export const DEFAULT_ITEMS_PER_MESSAGE = MAX_CONFIGURATION_SETTINGS;

/**
 * Bytes of an OCPP-J CALL frame beyond its payload: `[2,"<message id>","<action>",` and `]`, with room for a message
 * id of up to 36 characters (ocpp-rpc's are UUIDs).
 */
export const CALL_FRAME_OVERHEAD = 48;

export const utf8Length = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * A 2.0.1 SetVariables or GetVariables split into calls that each stay within the station's limits: at most
 * `itemsPerMessage` variables (DEFAULT_ITEMS_PER_MESSAGE when unknown) and, when `bytesPerMessage` is known, at most
 * that many bytes per CALL frame (a variable too large on its own still goes, alone: the station answers for it).
 * The variables keep their order; any other call is returned as it is.
 */
export function splitVariableCall(call: OcppCall, limits: MessageLimits): OcppCall[] {
  const list = Object.hasOwn(VARIABLE_LISTS, call.action)
    ? VARIABLE_LISTS[call.action as keyof typeof VARIABLE_LISTS]
    : undefined;
  const items = list ? listOf(call.payload, list.request) : [];
  if (!list || items.length <= 1) return [call];
  const maxItems = Math.max(1, limits.itemsPerMessage ?? DEFAULT_ITEMS_PER_MESSAGE);
  const maxBytes = limits.bytesPerMessage;
  const frameBytes = (part: unknown[]) =>
    CALL_FRAME_OVERHEAD + call.action.length + utf8Length({ ...call.payload, [list.request]: part });
  const parts: unknown[][] = [];
  let part: unknown[] = [];
  for (const item of items) {
    const candidate = [...part, item];
    const fits = candidate.length <= maxItems && (maxBytes === null || frameBytes(candidate) <= maxBytes);
    if (fits || part.length === 0) {
      part = candidate;
    } else {
      parts.push(part);
      part = [item];
    }
  }
  parts.push(part);
  if (parts.length === 1) return [call];
  return parts.map((variables) => ({
    action: call.action,
    payload: { ...call.payload, [list.request]: variables },
  }));
}

/**
 * The answers to the parts of a split SetVariables/GetVariables as one answer, as if the station had answered the
 * whole request: the results of every answered part, in the order sent (`undefined` marks a part not answered).
 */
export function mergeVariableResponses(action: string, responses: readonly unknown[]): unknown {
  const list = Object.hasOwn(VARIABLE_LISTS, action)
    ? VARIABLE_LISTS[action as keyof typeof VARIABLE_LISTS]
    : undefined;
  if (!list || responses.length === 1) return responses[0];
  return {
    [list.response]: responses
      .filter((response) => response !== undefined)
      .flatMap((response) => listOf(response, list.response)),
  };
}
