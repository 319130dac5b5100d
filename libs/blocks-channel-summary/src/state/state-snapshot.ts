import type { LineListView } from './line-list';
import type { OpenThreadList } from './open-thread-set';
import { ClosureRecord } from './state-records';

/** A name with its message count. */
export type NameCount = readonly [name: string, count: number];

/** A closure as written to annotations: the record with its instant as an ISO string. */
export type ClosureView = Omit<ClosureRecord, 'at'> & { readonly at: string };

export interface DecisionView {
  readonly seq: number;
  readonly sender: string;
  readonly topic: string;
  readonly at: string;
  readonly text: string;
}

export interface StatusView {
  readonly agent: string;
  readonly seq: number;
  readonly topic: string;
  readonly at: string;
  readonly text: string;
}

/**
 * The bounded, fully materialised state after a call: strings and excerpts only. Both the
 * annotations and the report are produced from it. Every list is in ascending seq order.
 */
export interface ChannelStateSnapshot {
  readonly participants: readonly NameCount[];
  readonly topics: readonly NameCount[];
  readonly periodStart: string | null;
  readonly periodEnd: string | null;
  readonly messageCount: number;
  readonly eventCount: number;
  /** Oldest first; read lazily (see OpenThreadList). */
  readonly openThreads: OpenThreadList;
  readonly openThreadsDropped: number;
  /** Oldest first, read lazily like the open threads (see LineListView). */
  readonly recentClosures: LineListView<ClosureView>;
  readonly decisions: LineListView<DecisionView>;
  readonly latestStatus: LineListView<StatusView>;
}
