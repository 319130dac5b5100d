/** Just enough of a ServerResponse to see what an SseStream writes. */
export class FakeSseResponse {
  chunks: string[] = [];
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  writeHead() {
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
  }
  destroy() {
    this.destroyed = true;
  }
}
