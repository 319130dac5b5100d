/** A channel's settings changed (threshold, summariser, …): its backlog may now need a summary. */
export class ChannelReconfiguredEvent {
  static readonly NAME = 'channel.reconfigured';
  constructor(readonly channelId: string) {}
}
