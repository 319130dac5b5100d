import { ChannelEventHub, EVERY_CHANNEL_ID } from '../../src/realtime/channel-event-hub';
import { ChannelStreamEvent, MESSAGE_POSTED, RESYNC } from '../../src/realtime/channel-stream-event';

const posted = (channelId: string): ChannelStreamEvent => ({ channelId, name: MESSAGE_POSTED, data: { seq: 1 }, telemetry: false });

describe('ChannelEventHub, every-channel listeners (inbox waits)', () => {
  it('hear every channel, and make every channel count as heard while subscribed', () => {
    const hub = new ChannelEventHub();
    const heard: string[] = [];
    expect(hub.has('7')).toBe(false);
    const stop = hub.subscribeAll((e) => heard.push(e.channelId));
    expect(hub.has('7')).toBe(true);
    hub.deliver(posted('7'));
    hub.deliver(posted('8'));
    expect(heard).toEqual(['7', '8']);
    expect(hub.subscriberCount).toBe(1);
    stop();
    expect(hub.has('7')).toBe(false);
    hub.deliver(posted('9'));
    expect(heard).toEqual(['7', '8']);
  });

  it('get one resync per resyncAll, however many channels have listeners; channel listeners one each', () => {
    const hub = new ChannelEventHub();
    const every: ChannelStreamEvent[] = [];
    const one: ChannelStreamEvent[] = [];
    hub.subscribeAll((e) => every.push(e));
    hub.subscribe('1', (e) => one.push(e));
    hub.subscribe('2', () => undefined);
    hub.resyncAll();
    expect(every).toEqual([{ channelId: EVERY_CHANNEL_ID, name: RESYNC, data: {}, telemetry: false }]);
    expect(one).toEqual([{ channelId: '1', name: RESYNC, data: {}, telemetry: false }]);
  });

  it('a failing listener does not keep the event from the others', () => {
    const hub = new ChannelEventHub();
    const heard: string[] = [];
    hub.subscribeAll(() => {
      throw new Error('boom');
    });
    hub.subscribe('1', (e) => heard.push(`channel ${e.channelId}`));
    hub.subscribeAll((e) => heard.push(`every ${e.channelId}`));
    hub.deliver(posted('1'));
    expect(heard).toEqual(['channel 1', 'every 1']);
  });
});
