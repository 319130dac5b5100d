import { validateProjectedMessages } from '../../src/projection/shape-validator';

const rules = (messages: unknown, format: 'anthropic' | 'openai' | 'text') => validateProjectedMessages(messages, format).map((p) => p.rule);
const text = (t: string) => ({ type: 'text', text: t });
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'search', input: { q: 'x' } });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'found' });

describe('validateProjectedMessages: anthropic', () => {
  it('accepts a well-formed transcript, with or without a system prompt', () => {
    const messages = [
      { role: 'user', content: [text('[Summary …]'), text('[bob · QUERY #3] ready?')] },
      { role: 'assistant', content: 'yes' },
      { role: 'user', content: 'go' },
    ];
    expect(validateProjectedMessages({ messages }, 'anthropic')).toEqual([]);
    expect(validateProjectedMessages({ system: 'You are alice.', messages }, 'anthropic')).toEqual([]);
    expect(validateProjectedMessages(messages, 'anthropic')).toEqual([]);
  });

  it('flags blank content: a blank string, an empty block list, a blank text block, a blank system', () => {
    expect(rules({ messages: [{ role: 'user', content: '  \n' }] }, 'anthropic')).toEqual(['blank-content']);
    expect(rules({ messages: [{ role: 'user', content: [] }] }, 'anthropic')).toEqual(['blank-content']);
    expect(rules({ messages: [{ role: 'user', content: [text('ok'), text('')] }] }, 'anthropic')).toEqual(['blank-content']);
    expect(rules({ system: ' ', messages: [{ role: 'user', content: 'hi' }] }, 'anthropic')).toEqual(['blank-content']);
  });

  it('requires the first message from the user, and strict alternation', () => {
    expect(rules({ messages: [{ role: 'assistant', content: 'hi' }, { role: 'user', content: 'yo' }] }, 'anthropic')).toEqual(['first-not-user']);
    expect(rules({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] }, 'anthropic')).toEqual(['alternation']);
  });

  it('refuses a system role inside messages, anywhere', () => {
    expect(rules({ messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }] }, 'anthropic')).toContain('system-after-first');
    expect(rules({ messages: [{ role: 'system', content: 'b' }] }, 'anthropic')).toEqual(['system-after-first', 'first-not-user']);
  });

  it('requires every tool_use answered in the next message, results first, and no orphan result', () => {
    const ok = [
      { role: 'user', content: 'find x' },
      { role: 'assistant', content: [text('looking'), toolUse('t1'), toolUse('t2')] },
      { role: 'user', content: [toolResult('t1'), toolResult('t2'), text('thanks')] },
    ];
    expect(rules({ messages: ok }, 'anthropic')).toEqual([]);

    const unanswered = [ok[0], ok[1], { role: 'user', content: [toolResult('t1')] }];
    expect(validateProjectedMessages({ messages: unanswered }, 'anthropic')).toEqual([
      expect.objectContaining({ rule: 'tool-use-unanswered', path: 'messages[1].content[2]' }),
    ]);
    // A summary spliced between a call and its result separates them: both sides are flagged.
    const separated = [ok[0], ok[1], { role: 'user', content: 'summary' }, { role: 'assistant', content: 'x' }, ok[2]];
    expect(rules({ messages: separated }, 'anthropic')).toEqual(['tool-use-unanswered', 'tool-use-unanswered', 'orphan-tool-result', 'orphan-tool-result']);

    const orphan = [{ role: 'user', content: [toolResult('t9')] }];
    expect(rules({ messages: orphan }, 'anthropic')).toEqual(['orphan-tool-result']);
    const late = [ok[0], ok[1], { role: 'user', content: [text('first'), toolResult('t1'), toolResult('t2')] }];
    expect(rules({ messages: late }, 'anthropic')).toEqual(['tool-result-not-first', 'tool-result-not-first']);
  });

  it('flags a tool_use left dangling at the very end (a transcript cut short)', () => {
    expect(rules({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('t1')] }] }, 'anthropic')).toEqual(['tool-use-unanswered']);
  });

  it('flags trailing whitespace at the end of a final assistant turn', () => {
    expect(rules({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b \n' }] }, 'anthropic')).toEqual(['trailing-whitespace']);
    expect(rules({ messages: [{ role: 'user', content: 'a ' }] }, 'anthropic')).toEqual([]);
  });

  it('handles empty and malformed transcripts without throwing', () => {
    expect(rules({ messages: [] }, 'anthropic')).toEqual(['empty']);
    expect(rules([], 'anthropic')).toEqual(['empty']);
    for (const junk of [null, undefined, 42, 'text', { messages: 'no' }]) expect(rules(junk, 'anthropic')).toEqual(['not-a-transcript']);
    expect(rules({ messages: [null, { role: 'user', content: [null] }] }, 'anthropic')).toContain('not-a-transcript');
    expect(rules({ messages: [{ role: 'robot', content: 'x' }] }, 'anthropic')).toEqual(['unknown-role', 'first-not-user']);
  });
});

describe('validateProjectedMessages: openai', () => {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'search', arguments: '{}' } });

  it('accepts a leading system message, then the user first', () => {
    expect(rules([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }], 'openai')).toEqual([]);
    expect(rules([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }], 'openai')).toEqual([]);
  });

  it('flags a system message after index 0, and a first message not from the user', () => {
    expect(rules([{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }], 'openai')).toEqual(['system-after-first']);
    expect(rules([{ role: 'system', content: 'a' }, { role: 'assistant', content: 'b' }], 'openai')).toEqual(['first-not-user']);
    expect(rules([{ role: 'system', content: 'only' }], 'openai')).toEqual(['first-not-user']);
  });

  it('flags blank content, except a tool-calling assistant turn and a tool output', () => {
    expect(rules([{ role: 'user', content: '' }], 'openai')).toEqual(['blank-content']);
    expect(rules([{ role: 'user', content: null }], 'openai')).toEqual(['blank-content']);
    const tools = [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: '' }];
    expect(rules(tools, 'openai')).toEqual([]);
  });

  it('pairs tool calls with the tool messages that follow, and flags orphans', () => {
    const asked = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] };
    expect(rules([{ role: 'user', content: 'x' }, asked, { role: 'tool', tool_call_id: 'c2', content: 'b' }, { role: 'tool', tool_call_id: 'c1', content: 'a' }], 'openai')).toEqual([]);
    expect(rules([{ role: 'user', content: 'x' }, asked, { role: 'tool', tool_call_id: 'c1', content: 'a' }, { role: 'user', content: 'y' }], 'openai')).toEqual([
      'tool-use-unanswered',
    ]);
    expect(rules([{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c1', content: 'a' }], 'openai')).toEqual(['orphan-tool-result']);
    expect(rules([{ role: 'user', content: 'x' }, asked], 'openai')).toEqual(['tool-use-unanswered', 'tool-use-unanswered']);
  });

  it('handles empty and malformed transcripts without throwing', () => {
    expect(rules([], 'openai')).toEqual(['empty']);
    expect(rules({ messages: [] }, 'openai')).toEqual(['not-a-transcript']);
    expect(rules([{ role: 'user', content: 'x' }, 7], 'openai')).toEqual(['not-a-transcript']);
  });
});

describe('validateProjectedMessages: text', () => {
  it('wants one non-blank string', () => {
    expect(rules('[Summary …]\n\nhello', 'text')).toEqual([]);
    expect(rules('  ', 'text')).toEqual(['blank-content']);
    expect(rules(['a'], 'text')).toEqual(['not-a-transcript']);
  });
});
