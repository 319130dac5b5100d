import { Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';

type JsonRpcId = string | number;

/** The JSON-RPC messages of one POST body (one message, or a batch). */
function messagesOf(body: unknown): Record<string, unknown>[] {
  const all = Array.isArray(body) ? body : [body];
  return all.filter((m): m is Record<string, unknown> => m !== null && typeof m === 'object');
}

const isId = (id: unknown): id is JsonRpcId => typeof id === 'string' || typeof id === 'number';

/**
 * `notifications/cancelled` for a tool call still running on this instance. A stateless server
 * (a server per POST) never sees the cancel of an earlier POST's request, and the official client
 * cancels that way, keeping the HTTP request open: a cancelled `wait_for_messages` then held its
 * wait slot until its timeout. Calls are keyed by caller and JSON-RPC id (stateless MCP has no
 * session to tell two clients of one agent apart): a cancel ends that agent's call with that id on
 * this instance, which for a wait only means it answers early, with what is there.
 */
@Injectable()
export class McpCancellations {
  private readonly running = new Map<string, Set<AbortController>>();

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
    for (const controller of this.running.get(this.key(by, requestId)) ?? []) controller.abort();
  }

  private key(by: Principal, id: JsonRpcId): string {
    return `${by.kind}\u0000${by.name}\u0000${typeof id}\u0000${id}`;
  }
}
