import { Message } from '@qhorus/api';
import { MessageRow, toMessage } from '../../message-store/message.entity';

/** What a chunk-by-chunk pass reads and folds (see foldInChunks). */
export interface ChunkedPass {
  channelName: string;
  /** The pass starts after this seq. */
  afterSeq: number;
  /** It ends at this seq (null: when the messages run out). */
  throughSeq: number | null;
  /** QHORUS_SUMMARY_CHUNK_SIZE: the most messages `read` returns at once. */
  chunkSize: number;
  /** The next chunk after `afterSeq`, in seq order (at most chunkSize, none past throughSeq). */
  read: (afterSeq: number) => Promise<MessageRow[]>;
  /** A first chunk already read with the job's start (SummaryRepository.findDue). */
  firstChunk?: MessageRow[];
  /** Folds one chunk (read after `afterSeq`) into the caller's running result; returns the seq the next chunk starts after. */
  step: (chunk: Message[], afterSeq: number) => Promise<number>;
}

/**
 * A summary over a range of any length in bounded memory and work: its messages read in chunks,
 * each folded into a running result (a summariser step, or the state tracker alone for a manual
 * override), so the work is linear in the range and only one chunk is held at a time. A chunk
 * shorter than asked is the last one, unless the step moved on elsewhere (a job that lost its
 * commit to an override continues from the override's watermark).
 */
export async function foldInChunks(pass: ChunkedPass): Promise<void> {
  let afterSeq = pass.afterSeq;
  let pending = pass.firstChunk ?? null;
  while (pass.throughSeq === null || afterSeq < pass.throughSeq) {
    const rows = pending ?? (await pass.read(afterSeq));
    pending = null;
    if (rows.length === 0) return;
    const chunk = rows.map((r) => toMessage(r, pass.channelName));
    const lastSeq = chunk[chunk.length - 1].seq;
    afterSeq = await pass.step(chunk, afterSeq);
    if (rows.length < pass.chunkSize && afterSeq === lastSeq) return;
  }
}
