/**
 * The lines of a streamed NDJSON body, parsed one by one as they arrive: only the current line
 * is held, whatever the body's length. A blank line is skipped.
 */
export async function* ndjsonLines<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let partial = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const parts = (partial + decoder.decode(chunk.value, { stream: true })).split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line.trim() !== '') yield JSON.parse(line) as T;
    }
    partial += decoder.decode();
    if (partial.trim() !== '') yield JSON.parse(partial) as T;
  } finally {
    // The caller stopped early (or the body failed): stop reading the answer.
    await reader.cancel().catch(() => undefined);
  }
}
