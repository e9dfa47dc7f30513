import { Injectable, Logger } from '@nestjs/common';
import type { OcppCallReply, OcppCallRequest } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { type OcppCall, sendLocalListCall } from '@cpc/ocpp-commands';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { ChargePointCallSender, type SentCall } from './charge-point-call.sender.js';
import { LocalListSource, sendLocalListParameters } from './local-list.source.js';

/** The SendLocalList parts of one update as sent: their answers and how far the charge point went along. */
type PartsSent =
  | Extract<SentCall, { sent: false }>
  | {
      sent: true;
      sentAt: string;
      /** The answers received, in order. */
      answers: unknown[];
      /** Parts answered Accepted, from the first. */
      accepted: number;
      /** The last part's outcome: the first not Accepted (answered or not), else the last part's Accepted answer. */
      last: OcppCallReply;
    };

/**
 * Delivers a send_local_list: the update's SendLocalList parts (LocalListSource.prepare) one after the other in the
 * charge point's turn, each after the one before was Accepted (docs/authorization.md#local-authorization-lists).
 * assets-service hears of every answered part before the next goes out, so what the charge point accepted is the
 * controller's recorded list even when a later part is refused or the connection drops.
 */
@Injectable()
export class LocalListSender {
  private readonly logger = new Logger(LocalListSender.name);

  constructor(
    private readonly sender: ChargePointCallSender,
    private readonly lists: LocalListSource,
  ) {}

  /**
   * The reply is the last part's outcome: Accepted when every part was, else the first part not Accepted (its
   * answer, or a timeout, a CALLERROR, a lost connection). Several answers make `response` `{responses: [...]}`. A
   * differential update answered VersionMismatch is followed, in the same turn, by the whole list as a full update
   * when the command asks for it (`full_on_version_mismatch`); the reply is then the full update's, with every answer.
   */
  async send(
    connection: ChargePointConnection,
    request: OcppCallRequest,
    calls: OcppCall[],
    onSent: (sentAt: string) => void,
  ): Promise<SentCall> {
    const first = await this.sendParts(connection, request.commandUuid, calls, onSent);
    if (!first.sent) return first;
    const parameters = sendLocalListParameters(request);
    const mismatch =
      first.last.outcome === 'answered' &&
      first.last.resultStatus === 'VersionMismatch' &&
      parameters?.update_type === 'differential' &&
      parameters.full_on_version_mismatch === true;
    if (!mismatch) return { sent: true, sentAt: first.sentAt, reply: replyOf(first, first.answers) };
    let fullCalls: OcppCall[];
    try {
      const parts = await this.lists.prepare(connection, request.commandUuid, parameters, 'full');
      fullCalls = parts.map((part) => sendLocalListCall(connection.protocol, part).call);
    } catch (error) {
      this.logger.warn(`full local list after VersionMismatch not sent: ${describeError(error)}`);
      return { sent: true, sentAt: first.sentAt, reply: replyOf(first, first.answers) };
    }
    const full = await this.sendParts(connection, request.commandUuid, fullCalls);
    if (!full.sent)
      return {
        sent: true,
        sentAt: first.sentAt,
        reply: { outcome: 'connection_lost', action: 'SendLocalList' },
      };
    return { sent: true, sentAt: first.sentAt, reply: replyOf(full, [...first.answers, ...full.answers]) };
  }

  private async sendParts(
    connection: ChargePointConnection,
    commandUuid: string,
    calls: OcppCall[],
    onSent?: (sentAt: string) => void,
  ): Promise<PartsSent> {
    const answers: unknown[] = [];
    let sentAt: string | undefined;
    let last: OcppCallReply | undefined;
    for (const [index, call] of calls.entries()) {
      const sent = await this.sender.send(connection, call, index === 0 ? onSent : undefined);
      if (sentAt === undefined) {
        if (!sent.sent) return sent;
        sentAt = sent.sentAt;
      }
      last = sent.reply ?? { outcome: 'connection_lost', action: call.action };
      // Unanswered: the charge point may or may not hold this part; nothing more is recorded (the next differential
      // update then carries this part's version, and a charge point that holds it answers VersionMismatch).
      if (last.outcome !== 'answered') return { sent: true, sentAt, answers, accepted: index, last };
      answers.push(last.response);
      const accepted = last.status === 'accepted';
      const final = !accepted || index === calls.length - 1;
      await this.report(connection, commandUuid, accepted ? index + 1 : index, final);
      if (!accepted) return { sent: true, sentAt, answers, accepted: index, last };
    }
    if (sentAt === undefined || last === undefined) throw new TypeError('a local list update without parts');
    return { sent: true, sentAt, answers, accepted: calls.length, last };
  }

  /** Before the next part and before the reply: the controller's next command is prepared over this list. */
  private async report(
    connection: ChargePointConnection,
    commandUuid: string,
    acceptedParts: number,
    final: boolean,
  ): Promise<void> {
    await this.lists.answered(connection, commandUuid, acceptedParts, final).catch((error: unknown) => {
      this.logger.warn(
        `answer to ${commandUuid} left to later reports and the call-completed event: ${describeError(error)}`,
      );
    });
  }
}

/** One reply for the parts sent: the last part's outcome, with every answer and the parts accepted. */
function replyOf(parts: Extract<PartsSent, { sent: true }>, answers: unknown[]): OcppCallReply {
  if (parts.last.outcome !== 'answered') return parts.last;
  return {
    ...parts.last,
    response: answers.length === 1 ? answers[0] : { responses: answers },
    localListPartsAccepted: parts.accepted,
  };
}
