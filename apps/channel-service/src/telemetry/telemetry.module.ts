import { Module, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Flushes the last spans when the service stops (nothing to do when tracing is off). */
@Module({})
export class TelemetryModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
