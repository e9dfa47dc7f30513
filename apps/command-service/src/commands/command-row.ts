import type { CommandResult, OcppCallTarget } from '@cpc/contracts';

/** The columns of control.commands a view and a status event need. */
export interface CommandRow {
  uuid: string;
  tenant_uuid: string;
  controller_uuid: string;
  type: string;
  target_type: string;
  target_uuid: string;
  status: string;
  result: CommandResult | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A command this instance claimed for one delivery attempt. */
export type ClaimedCommand = Pick<
  CommandRow,
  'uuid' | 'tenant_uuid' | 'controller_uuid' | 'type' | 'target_type' | 'target_uuid' | 'created_at'
> & {
  target: OcppCallTarget;
  parameters: unknown;
  status: 'pending' | 'sent';
  valid_until: Date;
  target_deleted_at: Date | null;
  /** The W3C traceparent of the traced request that created it: its delivery continues that trace. */
  traceparent: string | null;
};

/** A stored command; `leased` when it was stored leased to this instance's dispatcher (see createCommands). */
export type StoredCommand = CommandRow & ClaimedCommand & { leased: boolean };
