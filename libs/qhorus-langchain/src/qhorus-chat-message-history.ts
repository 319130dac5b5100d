import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Message, PostMessage, QhorusClient } from '@qhorus/client';

export interface QhorusChatMessageHistoryOptions {
  client: QhorusClient;
  channel: string;
  /** The agent this history speaks for (the client's token): its posts read back as AI messages. */
  agent: string;
  /** At most this many recent messages after the summary (default 40). */
  recentMessages?: number;
  /** The type new messages are posted with (default STATUS). */
  messageType?: PostMessage['type'];
}

export const DEFAULT_RECENT_MESSAGES = 40;
/** Message metadata key recording which LangChain role a post had (a human turn posted by the agent's process). */
export const LANGCHAIN_ROLE_KEY = 'langchainRole';

type Role = 'human' | 'ai' | 'system';

/**
 * A LangChain chat message history backed by a Qhorus channel. Messages go in as posts (the
 * LangChain role in the metadata); they come out as the channel's summary (one SystemMessage,
 * when there is one) followed by the messages after its watermark, newest `recentMessages`:
 * the agent's own as AIMessage, everyone else's as HumanMessage named by the sender. So a chain
 * with this memory carries a bounded context however long the channel gets.
 *
 * Qhorus never rewrites history: `clear()` moves this history's own start past the newest
 * message (and drops the summary from what it returns); the channel keeps everything.
 */
export class QhorusChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['qhorus', 'chat_history'];
  private readonly client: QhorusClient;
  private readonly channel: string;
  private readonly agent: string;
  private readonly recent: number;
  private readonly messageType: PostMessage['type'];
  /** Set by clear(): nothing at or before this seq is returned. */
  private clearedThroughSeq = 0;

  constructor(options: QhorusChatMessageHistoryOptions) {
    super();
    this.client = options.client;
    this.channel = options.channel;
    this.agent = options.agent;
    this.recent = options.recentMessages ?? DEFAULT_RECENT_MESSAGES;
    this.messageType = options.messageType ?? 'STATUS';
  }

  async getMessages(): Promise<BaseMessage[]> {
    const summary = await this.client.getSummary(this.channel);
    const showSummary = summary.version > 0 && summary.text.trim() !== '' && summary.coversThroughSeq > this.clearedThroughSeq;
    const from = Math.max(showSummary ? summary.coversThroughSeq : 0, this.clearedThroughSeq, summary.lastSeq - this.recent);
    const tail = await this.client.listMessages(this.channel, { afterSeq: from, limit: this.recent });
    const head = showSummary ? [new SystemMessage(`Summary of this conversation through message ${summary.coversThroughSeq}:\n${summary.text}`)] : [];
    return [...head, ...tail.map((m) => this.toLangChain(m))];
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.client.postMessage(this.channel, { type: this.messageType, content: message.text, metadata: { [LANGCHAIN_ROLE_KEY]: roleOf(message) } });
  }

  override async addMessages(messages: BaseMessage[]): Promise<void> {
    for (const m of messages) await this.addMessage(m);
  }

  override async clear(): Promise<void> {
    this.clearedThroughSeq = (await this.client.getChannel(this.channel)).lastSeq;
  }

  private toLangChain(m: Message): BaseMessage {
    const role = (m.metadata?.[LANGCHAIN_ROLE_KEY] as Role | undefined) ?? (m.sender === this.agent ? 'ai' : 'human');
    // A redacted message (content null) stays in the history as a placeholder, never blank.
    const content = m.content ?? REDACTED_TEXT;
    if (role === 'system') return new SystemMessage(content);
    if (role === 'ai') return new AIMessage({ content, name: m.sender });
    return new HumanMessage({ content, name: m.sender === this.agent ? undefined : m.sender });
  }
}

/** How a redacted message's content shows in a LangChain history. */
export const REDACTED_TEXT = '[redacted]';

function roleOf(message: BaseMessage): Role {
  const type = message.getType();
  if (type === 'ai') return 'ai';
  if (type === 'system') return 'system';
  return 'human';
}
