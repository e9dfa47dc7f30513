import type { ConfigurationSettingResult, ConfigurationSourceMessage } from '@cpc/contracts';
import { CHANGED_STATUSES } from '@cpc/ocpp-commands';

/** One configuration key (1.6) or variable attribute (2.0.1) as a charge point reported it. */
export interface ConfigurationEntry {
  key: string;
  component: string | null;
  componentInstance: string | null;
  evseId: number | null;
  connectorId: number | null;
  variable: string;
  variableInstance: string | null;
  attributeType: string | null;
  /** undefined: the message says nothing about the value (keep the stored one). */
  value: string | null | undefined;
  /** undefined: the message says nothing about it (keep the stored one). */
  mutability: string | null | undefined;
  /** undefined: the message says nothing about them (keep the stored ones). */
  characteristics: Record<string, unknown> | null | undefined;
  status: string;
}

/** Entries of one message, with what reported them. */
export interface ReportedConfiguration {
  message: ConfigurationSourceMessage;
  entries: ConfigurationEntry[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const integer = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** The 2.0.1 attribute type a message means when it names none. */
const DEFAULT_ATTRIBUTE_TYPE = 'Actual';

/** A 2.0.1 component/variable/attribute as one entry with its key (ConfigurationEntryView.key). */
function deviceModelEntry(
  component: Json,
  variable: Json,
  attributeType: unknown,
  rest: Pick<ConfigurationEntry, 'value' | 'mutability' | 'characteristics' | 'status'>,
): ConfigurationEntry | null {
  const componentName = text(component.name);
  const variableName = text(variable.name);
  if (componentName === null || variableName === null) return null;
  const evse = isObject(component.evse) ? component.evse : undefined;
  const entry: ConfigurationEntry = {
    key: '',
    component: componentName,
    componentInstance: text(component.instance),
    evseId: evse ? integer(evse.id) : null,
    connectorId: evse ? integer(evse.connectorId) : null,
    variable: variableName,
    variableInstance: text(variable.instance),
    attributeType: text(attributeType) ?? DEFAULT_ATTRIBUTE_TYPE,
    ...rest,
  };
  entry.key = deviceModelKey(entry);
  return entry;
}

/**
 * `Component[instance]@evse/connector.Variable[instance]:AttributeType`, each extra only when present (the attribute
 * type unless Actual): `OCPPCommCtrlr.HeartbeatInterval` is also how refresh_configuration names a variable.
 */
export function deviceModelKey(
  entry: Pick<
    ConfigurationEntry,
    | 'component'
    | 'componentInstance'
    | 'evseId'
    | 'connectorId'
    | 'variable'
    | 'variableInstance'
    | 'attributeType'
  >,
): string {
  let key = entry.component ?? '';
  if (entry.componentInstance !== null) key += `[${entry.componentInstance}]`;
  if (entry.evseId !== null)
    key += `@${entry.evseId}${entry.connectorId !== null ? `/${entry.connectorId}` : ''}`;
  key += `.${entry.variable}`;
  if (entry.variableInstance !== null) key += `[${entry.variableInstance}]`;
  if (entry.attributeType !== null && entry.attributeType !== DEFAULT_ATTRIBUTE_TYPE)
    key += `:${entry.attributeType}`;
  return key;
}

/** A 1.6 key as an entry. */
function keyEntry(
  key: string,
  rest: Pick<ConfigurationEntry, 'value' | 'mutability' | 'status'>,
): ConfigurationEntry {
  return {
    key,
    component: null,
    componentInstance: null,
    evseId: null,
    connectorId: null,
    variable: key,
    variableInstance: null,
    attributeType: null,
    characteristics: null,
    ...rest,
  };
}

/** 1.6 GetConfiguration.conf: `configurationKey` (key, readonly, value) and `unknownKey`. */
export function fromGetConfiguration(response: unknown): ConfigurationEntry[] {
  if (!isObject(response)) return [];
  const known = objects(response.configurationKey).flatMap((item) => {
    const key = text(item.key);
    if (key === null) return [];
    const mutability = item.readonly === true ? 'ReadOnly' : 'ReadWrite';
    return [keyEntry(key, { value: text(item.value), mutability, status: 'Accepted' })];
  });
  const unknown = (Array.isArray(response.unknownKey) ? response.unknownKey : [])
    .filter((key): key is string => typeof key === 'string')
    .map((key) => keyEntry(key, { value: null, mutability: undefined, status: 'UnknownKey' }));
  return [...known, ...unknown];
}

/** 2.0.1 GetVariables.conf: one entry per `getVariableResult`; the value only when its status is Accepted. */
export function fromGetVariables(response: unknown): ConfigurationEntry[] {
  if (!isObject(response)) return [];
  return objects(response.getVariableResult).flatMap((result) => {
    if (!isObject(result.component) || !isObject(result.variable)) return [];
    const status = text(result.attributeStatus) ?? 'Rejected';
    const entry = deviceModelEntry(result.component, result.variable, result.attributeType, {
      value: status === 'Accepted' ? (text(result.attributeValue) ?? null) : undefined,
      mutability: undefined,
      characteristics: undefined,
      status,
    });
    return entry ? [entry] : [];
  });
}

/** 2.0.1 NotifyReport `reportData`: one entry per variable attribute, with mutability and characteristics. */
export function fromReportData(reportData: unknown): ConfigurationEntry[] {
  return objects(reportData).flatMap((item) => {
    if (!isObject(item.component) || !isObject(item.variable)) return [];
    const characteristics = isObject(item.variableCharacteristics) ? item.variableCharacteristics : null;
    return objects(item.variableAttribute).flatMap((attribute) => {
      const entry = deviceModelEntry(item.component as Json, item.variable as Json, attribute.type, {
        value: text(attribute.value),
        mutability: text(attribute.mutability) ?? 'ReadWrite',
        characteristics,
        status: 'Accepted',
      });
      return entry ? [entry] : [];
    });
  });
}

/**
 * change_configuration: the settings the charge point took (Accepted, RebootRequired) with their new values; the
 * refused ones change nothing stored.
 */
export function fromChangedSettings(settings: unknown): ConfigurationEntry[] {
  return objects(settings).flatMap((item) => {
    const setting = item as Partial<ConfigurationSettingResult>;
    if (
      typeof setting.status !== 'string' ||
      !(CHANGED_STATUSES as readonly string[]).includes(setting.status)
    )
      return [];
    const rest = { value: text(setting.value), mutability: undefined, status: setting.status };
    if (typeof setting.key === 'string') return [keyEntry(setting.key, rest)];
    const entry = deviceModelEntry(
      {
        name: setting.component,
        instance: setting.component_instance,
        evse:
          setting.evse_id === undefined
            ? undefined
            : { id: setting.evse_id, connectorId: setting.connector_id },
      },
      { name: setting.variable, instance: setting.variable_instance },
      setting.attribute_type,
      { ...rest, characteristics: undefined },
    );
    return entry ? [entry] : [];
  });
}
