import { MessageType, REDACTED_TEXT } from '@qhorus/api';
import { MessageRow, messageView, toMessage } from '../../src/message-store/message.entity';
import { renderForViewer } from '../../src/projection/message-rendering';

const at = new Date('2026-12-03T08:00:00Z');
const row = (over: Partial<MessageRow> = {}): MessageRow => ({
  id: '7',
  seq: '12',
  type: MessageType.QUERY,
  sender: 'alice',
  content: 'is sk-123 the key?',
  topic: 'keys',
  correlation_id: 'c-1',
  in_reply_to: null,
  target: 'bob',
  metadata: { k: 'v' },
  created_at: at,
  redacted_at: null,
  redacted_by: null,
  redaction_reason: null,
  ...over,
});
const tombstoneRow = () => row({ content: null, topic: null, metadata: null, redacted_at: at, redacted_by: 'carol', redaction_reason: 'key pasted' });

describe('tombstones at the edge (DESIGN §10)', () => {
  it('summarisers get content "", the default topic, no metadata and redacted: true; never null', () => {
    const m = toMessage(tombstoneRow(), 'ops');
    expect(m).toMatchObject({ seq: 12, content: '', topic: 'general', metadata: null, redacted: true, correlationId: 'c-1', target: 'bob' });
  });

  it('the public view shows content, topic and metadata null and redacted {at, by, reason}; a plain message has no redacted key', () => {
    expect(messageView(toMessage(tombstoneRow(), 'ops'))).toEqual({
      id: '7', channel: 'ops', seq: 12, type: 'QUERY', sender: 'alice', content: null, topic: null, correlationId: 'c-1',
      inReplyTo: null, target: 'bob', metadata: null, createdAt: at, redacted: { at, by: 'carol', reason: 'key pasted' },
    });
    const plain = messageView(toMessage(row(), 'ops'));
    expect(plain).not.toHaveProperty('redacted');
    expect(plain).toMatchObject({ content: 'is sk-123 the key?', topic: 'keys', metadata: { k: 'v' } });
  });

  it('the projection renders a tombstone as a placeholder line, never blank, for its sender and for others', () => {
    const m = toMessage(tombstoneRow(), 'ops');
    expect(renderForViewer(m, 'alice', false).text).toBe(REDACTED_TEXT);
    expect(renderForViewer(m, 'bob', false).text).toBe(`[alice · QUERY #12 → bob · corr c-1] ${REDACTED_TEXT}`);
    expect(renderForViewer(m, 'bob', true).text).toContain(REDACTED_TEXT);
  });
});
