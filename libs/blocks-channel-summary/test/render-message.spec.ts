import { MessageType } from '@qhorus/api';
import { ELLIPSIS, RENDERED_CONTENT_CAP, renderMessage } from '@qhorus/blocks-channel-summary';
import { message } from './conversation-generator';

describe('renderMessage', () => {
  it('renders seq, type, sender→target, topic, correlation and content on one line', () => {
    const m = message(12, { type: MessageType.COMMAND, sender: 'alice', target: 'bob', topic: 'build', correlationId: 'c-1', content: 'run the tests' });
    expect(renderMessage(m)).toBe('#12 COMMAND alice→bob [build] (corr c-1): run the tests');
  });

  it('shows inReplyTo and omits absent parts', () => {
    const m = message(13, { type: MessageType.DONE, sender: 'bob', inReplyTo: 12, content: 'green' });
    expect(renderMessage(m)).toBe('#13 DONE bob [general] (re #12): green');
  });

  it('collapses newlines and caps long content visibly', () => {
    const m = message(1, { type: MessageType.STATUS, sender: 'a', content: `line one\r\n\n  line two\n${'x'.repeat(RENDERED_CONTENT_CAP * 2)}` });
    const line = renderMessage(m);
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).toContain('line one line two x');
    expect(line.endsWith(ELLIPSIS)).toBe(true);
    expect(line.length).toBeLessThan(RENDERED_CONTENT_CAP + 40);
  });
});
