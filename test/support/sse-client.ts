import { waitFor } from './http';

export interface SseEvent {
  event: string;
  data: any;
  /** The frame's `id:` (what a client sends back as Last-Event-ID). */
  id?: string;
}

/**
 * A Server-Sent Events client over fetch, reading the body stream: it records every event and
 * comment as it arrives, so tests can wait for what they expect.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';

  private constructor(
    private readonly abort: AbortController,
    body: ReadableStream<Uint8Array>,
  ) {
    void this.pump(body);
  }

  /** Opens the stream; a non-200 answer is returned as {status, body} with no stream. */
  static async open(
    baseUrl: string,
    path: string,
    token?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; body?: any; headers: Headers; stream?: SseClient }> {
    const abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(baseUrl + path, { headers, signal: abort.signal });
    if (res.status !== 200 || !res.body) return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
    return { status: res.status, headers: res.headers, stream: new SseClient(abort, res.body) };
  }

  /** Waits until an event named `event` satisfying `ok` has arrived, and returns it. */
  next(event: string, ok: (data: any) => boolean = () => true, timeoutMs = 30_000): Promise<SseEvent> {
    return waitFor(async () => this.events.find((e) => e.event === event && ok(e.data)), `an SSE ${event} event`, timeoutMs, 20);
  }

  /** The id of the last event received: what an EventSource would send as Last-Event-ID. */
  get lastEventId(): string | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i].id !== undefined) return this.events[i].id;
    return undefined;
  }

  named(event: string): any[] {
    return this.events.filter((e) => e.event === event).map((e) => e.data);
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) !== -1) {
          this.frame(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted by close(), or the server went away
    } finally {
      this.ended = true;
    }
  }

  private frame(frame: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')), id });
  }
}
