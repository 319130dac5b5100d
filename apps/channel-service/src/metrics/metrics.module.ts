import { Module } from '@nestjs/common';
import { ChannelBacklogReader } from './channel-backlog.reader';
import { HttpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';
import { MetricsListener } from './metrics.listener';
import { QhorusMetrics } from './qhorus-metrics';

/** `/metrics` for Prometheus: domain counters from events, HTTP timings from a Fastify hook. */
@Module({
  controllers: [MetricsController],
  providers: [
    ChannelBacklogReader,
    {
      provide: QhorusMetrics,
      inject: [ChannelBacklogReader],
      useFactory: (backlogs: ChannelBacklogReader) => new QhorusMetrics(() => backlogs.read()),
    },
    MetricsListener,
    HttpMetricsHook,
  ],
  exports: [QhorusMetrics],
})
export class MetricsModule {}
