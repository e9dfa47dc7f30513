import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing.js';

/** Exports the spans still buffered when the application shuts down (a provider of every service's root module). */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
