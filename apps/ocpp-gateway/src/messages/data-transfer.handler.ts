import { Injectable } from '@nestjs/common';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

/**
 * Vendor-specific DataTransfer. The platform handles no vendor's extensions yet, and OCPP's answer for that is
 * UnknownVendorId (not a CALLERROR): a vendor integration is a handler for its vendorId here.
 */
@Injectable()
export class DataTransferHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['DataTransfer'], 'ocpp2.0.1': ['DataTransfer'] } as const;

  handle(): Promise<object> {
    return Promise.resolve({ status: 'UnknownVendorId' });
  }
}
