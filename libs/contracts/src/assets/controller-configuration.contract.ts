/**
 * A controller's configuration as its charge point last reported it (assets-service, `assets.controller_configuration`):
 * 1.6 configuration keys (GetConfiguration, ChangeConfiguration) and 2.0.1 device-model variables (GetVariables,
 * NotifyReport after GetBaseReport, SetVariables), one entry per key or variable attribute. Request/reply on
 * AssetsSubjects.listControllerConfiguration with a TenantScopedRequest; another tenant's controller is not_found.
 */
export interface ListControllerConfigurationPayload {
  controllerUuid: string;
  page: number;
  limit: number;
  filter: ControllerConfigurationFilter;
}

export interface ControllerConfigurationFilter {
  /** 2.0.1: the component's name, exactly. */
  component?: string;
  /** The start of the entry's `key` (case-sensitive). */
  key_prefix?: string;
}

/** What reported an entry's value: the OCPP message, and the command it answered when there was one. */
export const CONFIGURATION_SOURCE_MESSAGES = [
  'GetConfiguration',
  'ChangeConfiguration',
  'GetVariables',
  'SetVariables',
  'NotifyReport',
] as const;
export type ConfigurationSourceMessage = (typeof CONFIGURATION_SOURCE_MESSAGES)[number];

export interface ControllerConfigurationEntryView {
  /**
   * The entry's name: the 1.6 key, or for 2.0.1 `Component[instance]@evse/connector.Variable[instance]:AttributeType`
   * with each extra only when present (the attribute type unless Actual), e.g. `OCPPCommCtrlr.HeartbeatInterval`.
   * Unique per controller; the list's order.
   */
  key: string;
  /** 2.0.1 only (null on 1.6). */
  component: string | null;
  component_instance: string | null;
  evse_id: number | null;
  connector_id: number | null;
  /** The 1.6 key or the 2.0.1 variable's name. */
  variable: string;
  variable_instance: string | null;
  /** 2.0.1: Actual, Target, MinSet, MaxSet; null on 1.6. */
  attribute_type: string | null;
  /** As reported; null when the charge point reported none (or the key is unknown to it). */
  value: string | null;
  /** ReadOnly, ReadWrite (1.6 readonly false), WriteOnly; null when never reported. */
  mutability: string | null;
  /** 2.0.1 variableCharacteristics as reported in a NotifyReport (unit, dataType, limits, valuesList …), else null. */
  characteristics: Record<string, unknown> | null;
  /**
   * How the charge point answered about it: Accepted; 1.6 UnknownKey; 2.0.1 the attributeStatus of GetVariables
   * (Rejected, UnknownComponent, UnknownVariable, NotSupportedAttributeType); for a change, its result
   * (Accepted, RebootRequired …).
   */
  status: string;
  source_message: ConfigurationSourceMessage;
  /** The command whose answer (or whose report) brought the value; null when unknown. */
  source_command_uuid: string | null;
  /** When the charge point reported it (ISO 8601, seconds, Z). */
  reported_at: string;
}

export interface ControllerSettingLimitsPayload {
  controllerUuid: string;
}

/**
 * How many settings one change (or entries one SendLocalList) may carry and how large one 2.0.1 message may be, as
 * the charge point reported it (null: not known).
 */
export interface ControllerSettingLimits {
  /** 1.6 `GetConfigurationMaxKeys`. */
  getConfigurationMaxKeys: number | null;
  /** 2.0.1 `DeviceDataCtrlr.ItemsPerMessage[SetVariables]` (ItemsPerMessageSetVariables). */
  itemsPerMessageSetVariables: number | null;
  /** 2.0.1 `DeviceDataCtrlr.BytesPerMessage[SetVariables]` (BytesPerMessageSetVariables). */
  bytesPerMessageSetVariables: number | null;
  /** 2.0.1 `DeviceDataCtrlr.ItemsPerMessage[GetVariables]` (ItemsPerMessageGetVariables). */
  itemsPerMessageGetVariables: number | null;
  /** 2.0.1 `DeviceDataCtrlr.BytesPerMessage[GetVariables]` (BytesPerMessageGetVariables). */
  bytesPerMessageGetVariables: number | null;
  /** 1.6 `SendLocalListMaxLength`: most entries one SendLocalList may carry. */
  sendLocalListMaxLength: number | null;
  /** 2.0.1 `LocalAuthListCtrlr.ItemsPerMessage` (ItemsPerMessageSendLocalList). */
  itemsPerMessageSendLocalList: number | null;
  /** 2.0.1 `LocalAuthListCtrlr.BytesPerMessage` (BytesPerMessageSendLocalList). */
  bytesPerMessageSendLocalList: number | null;
}

/** The entry keys (ControllerConfigurationEntryView.key) the limits are read from. */
export const SETTING_LIMIT_KEYS = {
  getConfigurationMaxKeys: 'GetConfigurationMaxKeys',
  itemsPerMessageSetVariables: 'DeviceDataCtrlr.ItemsPerMessage[SetVariables]',
  bytesPerMessageSetVariables: 'DeviceDataCtrlr.BytesPerMessage[SetVariables]',
  itemsPerMessageGetVariables: 'DeviceDataCtrlr.ItemsPerMessage[GetVariables]',
  bytesPerMessageGetVariables: 'DeviceDataCtrlr.BytesPerMessage[GetVariables]',
  sendLocalListMaxLength: 'SendLocalListMaxLength',
  itemsPerMessageSendLocalList: 'LocalAuthListCtrlr.ItemsPerMessage',
  bytesPerMessageSendLocalList: 'LocalAuthListCtrlr.BytesPerMessage',
} as const satisfies Record<keyof ControllerSettingLimits, string>;
