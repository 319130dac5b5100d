import { Module } from '@nestjs/common';
import { LongPollWaits } from '../message-store/long-poll-waits';
import { MessagesModule } from '../messages/messages.module';
import { ChannelBacklogReader } from './channel-backlog.reader';
import { HttpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';
import { MetricsListener } from './metrics.listener';
import { QhorusMetrics } from './qhorus-metrics';

/** `/metrics` for Prometheus: domain counters from events, HTTP timings from a Fastify hook. */
@Module({
  imports: [MessagesModule],
  controllers: [MetricsController],
  providers: [
    ChannelBacklogReader,
    {
      provide: QhorusMetrics,
      inject: [ChannelBacklogReader, LongPollWaits],
      useFactory: (backlogs: ChannelBacklogReader, waits: LongPollWaits) => new QhorusMetrics(() => backlogs.read(), () => waits.count),
    },
    MetricsListener,
    HttpMetricsHook,
  ],
  exports: [QhorusMetrics],
})
export class MetricsModule {}
