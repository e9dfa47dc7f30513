/**
 * The shapes of the public API the console reads: the views the services answer with (libs/contracts), imported as
 * types only, so nothing of the server side reaches the bundle.
 */
export type {
  AssetPagination as Pagination,
  ChargingSessionView as ChargingSession,
  CommandView as Command,
  ControllerView as Controller,
  LocationView as Location,
  PlugView as Plug,
  ValidationIssue,
} from '@cpc/contracts';

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

export type {
  ApiKeyView as ApiKey,
  AuditEventView as AuditEvent,
  CreatedApiKeyView as CreatedApiKey,
  RoleView as Role,
  UserView as User,
} from '@cpc/contracts';

export type {
  ControllerConfigurationEntryView as ConfigurationEntry,
  ControllerEventView as ControllerEvent,
  MeterValueView as MeterValue,
  WebhookDeliveryView as WebhookDelivery,
  WebhookSubscriptionView as Webhook,
} from '@cpc/contracts';

/** The answer to a webhook's creation and to `:rotate-secret`: the only ones that hold its signing secret. */
export interface WebhookWithSecret {
  webhook: import('@cpc/contracts').WebhookSubscriptionView;
  secret: string;
}
