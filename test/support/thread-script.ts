import { ApiClient } from './http';

/**
 * A scripted multi-agent conversation for e2e tests of the channel state, with its own ground
 * truth written out rule by rule (DESIGN §2), independent of the service's code: which requests
 * are open after every post, and who has spoken.
 */

export interface ScriptedPost {
  readonly sender: string;
  readonly body: Record<string, unknown>;
  /** What the post does to the ground truth, applied once the service gave it a seq. */
  readonly effect: (seq: number) => void;
}

export interface OpenRequest {
  readonly correlationId: string;
  readonly type: string;
  readonly sender: string;
  readonly seq: number;
}

/** mulberry32: a tiny seeded PRNG, so the script is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Keeps the number of open requests well below what a prompt's grounding lists. */
const MAX_OPEN = 12;

export class ThreadScript {
  private readonly rand: () => number;
  private readonly open = new Map<string, OpenRequest>();
  private readonly closed = new Map<string, string>();
  private readonly spoke = new Set<string>();
  private next = 1;

  constructor(
    private readonly channel: string,
    private readonly agents: readonly string[],
    seed: number,
    /** Content padding, so texts reach the cap quickly. */
    private readonly padding = '',
  ) {
    this.rand = prng(seed);
  }

  /** Requests not yet closed, in seq order (the expected `openThreads`). */
  expectedOpen(): OpenRequest[] {
    return [...this.open.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Every sender so far. */
  senders(): string[] {
    return [...this.spoke].sort();
  }

  /** The next post of the conversation (the state changes once it is posted, see `post`). */
  nextPost(): ScriptedPost {
    const r = this.rand();
    const sender = this.pick(this.agents);
    const open = [...this.open.values()];
    const closed = [...this.closed.entries()];
    if ((r < 0.3 && this.open.size < MAX_OPEN) || open.length === 0) return this.request(sender);
    if (r < 0.55) return this.close(sender, this.pick(open));
    if (r < 0.63) return this.handoff(sender, this.pick(open));
    if (r < 0.7) return this.replyToCommand(sender, open);
    if (r < 0.76 && closed.length > 0) return this.reopen(sender, this.pick(closed));
    if (r < 0.82 && closed.length > 0) return this.followUp(sender, this.pick(closed)[0]);
    return { sender, body: { type: 'STATUS', content: `${sender} working on it ${this.padding}` }, effect: () => undefined };
  }

  /** Posts as the script's sender; the ground truth changes only once the service accepted it. */
  async post(clients: Readonly<Record<string, ApiClient>>, p: ScriptedPost): Promise<number> {
    const res = await clients[p.sender].post(`/api/v1/channels/${this.channel}/messages`, p.body);
    if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.spoke.add(p.sender);
    p.effect(res.body.seq);
    return res.body.seq;
  }

  private request(sender: string): ScriptedPost {
    const type = this.rand() < 0.5 ? 'QUERY' : 'COMMAND';
    const correlationId = `${this.channel}-r${this.next++}`;
    const target = this.other(sender);
    return {
      sender,
      body: { type, correlationId, target, content: `${type === 'QUERY' ? 'Question' : 'Task'} ${correlationId} ${this.padding}` },
      effect: (seq) => this.open.set(correlationId, { correlationId, type, sender, seq }),
    };
  }

  /** RESPONSE answers a QUERY; DONE, DECLINE or FAILURE end anything. */
  private close(sender: string, request: OpenRequest): ScriptedPost {
    const type = request.type === 'QUERY' && this.rand() < 0.6 ? 'RESPONSE' : this.pick(['DONE', 'DECLINE', 'FAILURE']);
    return {
      sender,
      body: { type, correlationId: request.correlationId, content: `${type.toLowerCase()} for ${request.correlationId} ${this.padding}` },
      effect: () => {
        this.open.delete(request.correlationId);
        this.closed.set(request.correlationId, request.type);
      },
    };
  }

  /** A HANDOFF passes the thread on: still open, owed by the target. */
  private handoff(sender: string, request: OpenRequest): ScriptedPost {
    return {
      sender,
      body: { type: 'HANDOFF', correlationId: request.correlationId, target: this.other(sender), content: `passing ${request.correlationId} on` },
      effect: () => undefined,
    };
  }

  /** A RESPONSE to a COMMAND is a reply, not the end of the work: the thread stays open. */
  private replyToCommand(sender: string, open: readonly OpenRequest[]): ScriptedPost {
    const command = open.find((o) => o.type === 'COMMAND');
    if (!command) return this.request(sender);
    return { sender, body: { type: 'RESPONSE', correlationId: command.correlationId, content: `on it: ${command.correlationId}` }, effect: () => undefined };
  }

  /** A QUERY or COMMAND into a closed thread reopens it, as a request of the new post. */
  private reopen(sender: string, [correlationId]: [string, string]): ScriptedPost {
    const type = this.rand() < 0.5 ? 'QUERY' : 'COMMAND';
    return {
      sender,
      body: { type, correlationId, content: `reopening ${correlationId}` },
      effect: (seq) => {
        this.closed.delete(correlationId);
        this.open.set(correlationId, { correlationId, type, sender, seq });
      },
    };
  }

  /** Anything else into a closed thread is a follow-up: it stays closed. */
  private followUp(sender: string, correlationId: string): ScriptedPost {
    return { sender, body: { type: 'STATUS', correlationId, content: `follow-up on ${correlationId}` }, effect: () => undefined };
  }

  private other(sender: string): string {
    return this.pick(this.agents.filter((a) => a !== sender));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)];
  }
}
