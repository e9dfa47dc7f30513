import type { OcppCallReply } from '@cpc/contracts';
import { COMMAND_RESULT_ERRORS, CommandResultError } from '@cpc/ocpp-commands';
import type { CommandEnding } from './command-transitions.js';

type FinalReply = Exclude<OcppCallReply, { outcome: 'not_sent' }>;

/**
 * How the gateway's final reply ends a command (docs/spec/ocpp-mapping.md): the charge point's answer → accepted/rejected
 * with `result.status`; a CALLERROR, an invalid answer, a dropped connection, a command that cannot become a valid
 * call → failed with `result.error`; no answer in time → timeout with an empty result. Null for `not_sent` (nothing
 * happened; the dispatcher tries again) and for anything that is not a well-formed reply.
 */
export function endingOf(reply: unknown, sentAt?: string | null): CommandEnding | null {
  if (!isFinalReply(reply)) return null;
  switch (reply.outcome) {
    case 'answered':
      return {
        status: reply.status,
        // change_configuration: each setting with its status (result.settings).
        result: Array.isArray(reply.settings)
          ? { status: reply.resultStatus, settings: reply.settings }
          : { status: reply.resultStatus },
        response: reply.response,
        wasSent: true,
        sentAt,
      };
    case 'timeout':
      return { status: 'timeout', result: {}, wasSent: true, sentAt };
    case 'call_error':
      return { status: 'failed', result: { error: reply.error }, wasSent: true, sentAt };
    case 'invalid_response':
      return {
        status: 'failed',
        result: { error: CommandResultError.InvalidResponse },
        wasSent: true,
        sentAt,
      };
    case 'connection_lost':
      return {
        status: 'failed',
        result: { error: CommandResultError.ConnectionLost },
        wasSent: true,
        sentAt,
      };
    case 'invalid_command':
      return { status: 'failed', result: { error: reply.error }, wasSent: false };
  }
}

const isCommandResultError = (value: unknown): value is CommandResultError =>
  (COMMAND_RESULT_ERRORS as readonly unknown[]).includes(value);

function isFinalReply(reply: unknown): reply is FinalReply {
  if (typeof reply !== 'object' || reply === null) return false;
  const candidate = reply as Record<string, unknown>;
  switch (candidate.outcome) {
    case 'answered':
      return (
        (candidate.status === 'accepted' || candidate.status === 'rejected') &&
        typeof candidate.resultStatus === 'string'
      );
    case 'call_error':
    case 'invalid_command':
      return isCommandResultError(candidate.error);
    case 'timeout':
    case 'invalid_response':
    case 'connection_lost':
      return true;
    default:
      return false;
  }
}
