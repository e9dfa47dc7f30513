import type { ConfigurationSettingResult, OcppProtocol } from '@cpc/contracts';
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
 * 1.6: one ChangeConfiguration per key, `responses[i]` answering `calls[i]`. 2.0.1: one SetVariables, each
 * setVariableResult matched to its setVariableData by component, variable and attribute type (a setting the answer
 * does not mention gets status `Missing`).
 */
export function settingResults(
  protocol: OcppProtocol,
  calls: readonly OcppCall[],
  responses: readonly unknown[],
): ConfigurationSettingResult[] {
  if (protocol === 'ocpp1.6') {
    return calls.map((call, index) => ({
      key: String(call.payload.key),
      value: String(call.payload.value),
      status: text(object(responses[index]).status) ?? 'Missing',
    }));
  }
  const statuses = new Map<string, string>();
  for (const result of Array.isArray(object(responses[0]).setVariableResult)
    ? (object(responses[0]).setVariableResult as unknown[])
    : []) {
    const item = object(result);
    const status = text(item.attributeStatus);
    if (status !== undefined) statuses.set(identity(variableOf(item)), status);
  }
  const data = Array.isArray(calls[0]?.payload.setVariableData)
    ? (calls[0].payload.setVariableData as unknown[])
    : [];
  return data.map((entry) => {
    const item = object(entry);
    const setting = variableOf(item);
    return {
      ...setting,
      value: String(item.attributeValue),
      status: statuses.get(identity(setting)) ?? 'Missing',
    };
  });
}
