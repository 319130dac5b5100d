import type { ServerResponse } from 'node:http';
import { SSE_MAX_BUFFERED_BYTES, SSE_RETRY_MS } from './sse-limits';

/** One Server-Sent Events response, written straight to the socket. */
export class SseStream {
  private closed = false;

  constructor(private readonly res: ServerResponse) {}

  open(comment: string): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // nginx: do not buffer the stream
    });
    // Send the head now: a HEAD request gets no body, so no write would ever carry it out.
    this.res.flushHeaders();
    this.write(`retry: ${SSE_RETRY_MS}\n: ${oneLine(comment)}\n\n`);
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed || this.res.writableEnded;
  }

  /** One event; `id` becomes the client's Last-Event-ID (sent back when it reconnects). */
  send(event: string, data: unknown, id?: string): void {
    this.write(`${id === undefined ? '' : `id: ${oneLine(id)}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Resolves once the socket has room again (replays write pages of history: never queue them without bound). */
  async roomToWrite(): Promise<void> {
    if (this.isClosed || this.res.writableLength <= SSE_MAX_BUFFERED_BYTES / 2) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  comment(text: string): void {
    this.write(`: ${oneLine(text)}\n\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.res.writableEnded) this.res.end();
  }

  /** Closes the stream instead of queueing without bound when the client stops reading. */
  private write(chunk: string): void {
    if (this.isClosed) return;
    if (this.res.writableLength > SSE_MAX_BUFFERED_BYTES) {
      this.res.destroy();
      this.closed = true;
      return;
    }
    this.res.write(chunk);
  }
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');
