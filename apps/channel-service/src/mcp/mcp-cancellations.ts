import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { BusTopic, InstanceBus } from '../bus/instance-bus';

/** The bus topic on which an instance tells the others of a cancel it received. */
export const MCP_CANCEL_TOPIC: BusTopic = { name: 'mcp-cancelled', postgresChannel: 'qhorus_mcp_cancelled' };

type JsonRpcId = string | number;

/** The JSON-RPC messages of one POST body (one message, or a batch). */
function messagesOf(body: unknown): Record<string, unknown>[] {
  const all = Array.isArray(body) ? body : [body];
  return all.filter((m): m is Record<string, unknown> => m !== null && typeof m === 'object');
}

const isId = (id: unknown): id is JsonRpcId => typeof id === 'string' || typeof id === 'number';

/**
 * `notifications/cancelled` for a tool call still running, on any instance. A stateless server
 * (a server per POST) never sees the cancel of an earlier POST's request, and the official client
 * cancels that way, keeping the HTTP request open: a cancelled `wait_for_messages` then held its
 * wait slot until its timeout. Behind a load balancer the cancel may reach another instance than
 * the call, so a cancel is applied here at once and sent to the others over the instance bus
 * (every instance listens from its first MCP request; on the embedded database, one process, the
 * cancel comes back to this one, where applying it twice is harmless). Calls are keyed by caller and JSON-RPC id (stateless MCP has no session to tell
 * two clients of one agent apart): a cancel ends that agent's call with that id, which for a wait
 * only means it answers early, with what is there.
 */
@Injectable()
export class McpCancellations {
  private readonly logger = new Logger('McpCancellations');
  private readonly running = new Map<string, Set<AbortController>>();
  /** Set once this instance listens for the others' cancels (its first MCP request). */
  private listening: Promise<void> | null = null;

  constructor(private readonly bus: InstanceBus) {}

  /**
   * Resolves once cancels sent to other instances reach this one (at once after the first call).
   * A failure to listen is logged, not thrown: the call still runs, cancellable here only.
   */
  listen(): Promise<void> {
    this.listening ??= this.bus.subscribe(MCP_CANCEL_TOPIC, (payload) => this.onNotified(payload)).then(
      () => undefined,
      (err: Error) => {
        this.listening = null; // the next call tries again
        this.logger.warn({ err: err.message }, 'could not listen for MCP cancels from other instances');
      },
    );
    return this.listening;
  }

  /**
   * Before a POST is handled: registers its tool calls (returning their shared signal and the
   * function that forgets them), and applies the cancellations it carries.
   */
  track(by: Principal, body: unknown): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    const keys: string[] = [];
    for (const m of messagesOf(body)) {
      if (m.method === 'notifications/cancelled') this.cancel(by, (m.params as { requestId?: unknown } | undefined)?.requestId);
      else if (m.method === 'tools/call' && isId(m.id)) keys.push(this.key(by, m.id));
    }
    for (const key of keys) {
      const set = this.running.get(key) ?? new Set();
      set.add(controller);
      this.running.set(key, set);
    }
    const done = () => {
      for (const key of keys) {
        const set = this.running.get(key);
        set?.delete(controller);
        if (set?.size === 0) this.running.delete(key);
      }
    };
    return { signal: controller.signal, done };
  }

  /** Calls registered and not yet done (all callers). */
  get size(): number {
    return this.running.size;
  }

  private cancel(by: Principal, requestId: unknown): void {
    if (!isId(requestId)) return;
    const key = this.key(by, requestId);
    this.abort(key);
    this.tellOthers(key);
  }

  private abort(key: string): void {
    for (const controller of this.running.get(key) ?? []) controller.abort();
  }

  /** Fire and forget, like the cancel itself: a lost nudge leaves the call to its own timeout. */
  private tellOthers(key: string): void {
    if (Buffer.byteLength(key) > this.bus.maxPayloadBytes) return;
    this.bus.publish(MCP_CANCEL_TOPIC, key).catch((err: Error) => this.logger.warn({ err: err.message }, 'could not tell the other instances of an MCP cancel'));
  }

  /** A cancel another instance received (or this one: applying it twice is harmless). */
  private onNotified(key: string): void {
    this.abort(key);
  }

  /** JSON text, not NUL-separated: a Postgres notification (the bus without Redis) cannot hold a NUL. */
  private key(by: Principal, id: JsonRpcId): string {
    return JSON.stringify([by.kind, by.name, id]);
  }
}
