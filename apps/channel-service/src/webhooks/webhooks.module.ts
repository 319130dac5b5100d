import { Module, Provider } from '@nestjs/common';
import { WebhookConfig } from '../config/slices/webhook-config';
import { MetricsModule } from '../metrics/metrics.module';
import { SummaryModule } from '../summary/summary.module';
import { BullmqWebhookKick } from './kick/bullmq-webhook.kick';
import { InProcessWebhookKick } from './kick/in-process-webhook.kick';
import { WebhookKick } from './kick/webhook-kick';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookHostResolver } from './webhook-host-resolver';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookWake } from './webhook-wake.listener';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Chooses the wake-up driver as the summary queue chooses its own: BullMQ when REDIS_URL is set, in-process otherwise. */
const webhookKickProvider: Provider = {
  provide: WebhookKick,
  inject: [WebhookConfig],
  useFactory: (config: WebhookConfig): WebhookKick =>
    config.redisUrl === undefined ? new InProcessWebhookKick() : new BullmqWebhookKick(config.redisUrl, config.queuePrefix),
};

/** Webhooks (DESIGN §11): the API, the outbox's fan-out and the deliverers. */
@Module({
  imports: [SummaryModule, MetricsModule],
  controllers: [WebhooksController],
  providers: [webhookKickProvider, WebhookHostResolver, WebhooksRepository, WebhooksService, WebhookWake, WebhookMetrics, WebhookDeliverer],
})
export class WebhooksModule {}
