import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { AgentEraser } from '../auth/agent-eraser';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { LifecycleRepository } from './lifecycle.repository';
import { RedactionService } from './redaction.service';

/** The reason recorded on each tombstone and audit entry of an erasure. */
export const erasureReason = (agent: string) => `agent '${agent}' erased`;

/** Messages redacted per transaction: each batch is one redaction, all or nothing, audited per message. */
export const ERASE_BATCH_SIZE = 500;

/**
 * `DELETE /agents/{name}?erase=true`: redacts every message the agent sent, channel by channel,
 * in batches of ERASE_BATCH_SIZE, each batch one redaction (all or nothing, audited per
 * message). A failure part way leaves whole batches done; asking again finishes the rest.
 */
@Injectable()
export class AgentErasureService extends AgentEraser {
  private readonly logger = new Logger(AgentErasureService.name);

  constructor(
    private readonly lifecycle: LifecycleRepository,
    private readonly redaction: RedactionService,
    private readonly channels: ChannelsService,
  ) {
    super();
  }

  async erase(agent: string, by: Principal): Promise<number> {
    const batch = ERASE_BATCH_SIZE;
    let erased = 0;
    let after = '0';
    for (let next = await this.lifecycle.nextChannelWithSender(agent, after); next; next = await this.lifecycle.nextChannelWithSender(agent, after)) {
      after = next.id;
      const channel = await this.channelIfStill(next.name, by);
      if (!channel) continue; // deleted meanwhile: nothing of the agent's left there
      for (;;) {
        const seqs = await this.lifecycle.senderSeqs(channel.id, agent, batch);
        if (seqs.length === 0) break;
        erased += (await this.redaction.redactInChannel(channel, seqs, erasureReason(agent), by.name)).length;
        if (seqs.length < batch) break;
      }
    }
    this.logger.log({ agent, erased }, 'agent erased');
    return erased;
  }

  private async channelIfStill(name: string, by: Principal): Promise<Channel | null> {
    try {
      return await this.channels.get(name, by);
    } catch (err) {
      if (err instanceof NotFoundException) return null;
      throw err;
    }
  }
}
