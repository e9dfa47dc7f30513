import { Injectable } from '@nestjs/common';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

/**
 * 2.0.1 notifications every station sends unprompted and whose answer carries nothing: monitoring events. The
 * platform does not use them yet; answering NotImplemented would make many stations retry them forever, so they are
 * acknowledged and dropped.
 */
@Injectable()
export class AcknowledgedNotificationsHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp2.0.1': ['NotifyEvent'] } as const;

  handle(): Promise<object> {
    return Promise.resolve({});
  }
}
