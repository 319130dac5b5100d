import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Channel } from '../../channels/channel.entity';
import { CostConfig } from '../../config/slices/cost-config';
import { ChannelModelMeter } from '../../cost/model-budget';
import { ModelCallEvent } from '../../cost/model-call.event';
import { ModelUsageRepository } from '../../cost/model-usage.repository';

/** Builds the model meter of a summary job: every model call of it goes through the channel's budget, with the same metrics. */
@Injectable()
export class ChannelModelMeters {
  constructor(
    private readonly modelUsage: ModelUsageRepository,
    private readonly config: CostConfig,
    private readonly events: EventEmitter2,
  ) {}

  /** `degraded`: whether the channel's slot says `degraded` as the job starts (a thread job: false). */
  meterFor(channel: Channel, degraded: boolean): ChannelModelMeter {
    return new ChannelModelMeter(channel, degraded, this.modelUsage, this.config, (e) => this.events.emit(ModelCallEvent.NAME, e));
  }
}
