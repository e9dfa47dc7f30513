import { Injectable } from '@nestjs/common';

/**
 * Tells this instance's dispatcher that commands may have become due (one was created, a charge point connected), so
 * it looks at once instead of at its next poll. Other instances find them by polling.
 */
@Injectable()
export class DispatchSignal {
  private listener: (() => void) | undefined;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}
