import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Buckets for a summary job: from a quick heuristic step to a slow LLM call. */
export const SUMMARY_JOB_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Buckets for HTTP requests: the API answers in milliseconds; long-lived streams land in +Inf. */
export const HTTP_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const METRIC_NAMES = {
  messagesPosted: 'qhorus_messages_posted_total',
  summaryJobs: 'qhorus_summary_jobs_total',
  summaryJobDuration: 'qhorus_summary_job_duration_seconds',
  summaryUpdates: 'qhorus_summary_updates_total',
  channelBacklog: 'qhorus_channel_backlog',
  httpDuration: 'qhorus_http_request_duration_seconds',
  modelCalls: 'qhorus_model_calls_total',
  modelTokens: 'qhorus_model_tokens_total',
  modelCallsRefused: 'qhorus_model_calls_refused_total',
  longPollWaits: 'qhorus_long_poll_waits',
} as const;

/**
 * Every metric of one app, in a registry of its own (not prom-client's global one), so several
 * apps in one process (the e2e tests, embedders) never collide or share counts.
 */
export class QhorusMetrics {
  readonly registry = new Registry();

  readonly messagesPosted = new Counter({
    name: METRIC_NAMES.messagesPosted,
    help: 'Messages committed to channels, by message type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly summaryJobs = new Counter({
    name: METRIC_NAMES.summaryJobs,
    help: 'Summary jobs that ended, by outcome (success|degraded: a plain llm channel committed its state without the failing model|failure) and the tier of their last committed step (none when nothing was committed).',
    labelNames: ['outcome', 'tier'] as const,
    registers: [this.registry],
  });

  readonly summaryJobDuration = new Histogram({
    name: METRIC_NAMES.summaryJobDuration,
    help: 'Wall time of a summary job, all its chunks included, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: SUMMARY_JOB_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly summaryUpdates = new Counter({
    name: METRIC_NAMES.summaryUpdates,
    help: 'Summary versions committed, by source (job|override).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly modelCalls = new Counter({
    name: METRIC_NAMES.modelCalls,
    help: 'Model calls made by summary jobs, by strategy and channel (private channels summed under _private).',
    labelNames: ['strategy', 'channel'] as const,
    registers: [this.registry],
  });

  readonly modelTokens = new Counter({
    name: METRIC_NAMES.modelTokens,
    help: 'Tokens of model calls as the API reported them, by strategy, channel (private ones under _private) and kind (input|output).',
    labelNames: ['strategy', 'channel', 'kind'] as const,
    registers: [this.registry],
  });

  readonly modelCallsRefused = new Counter({
    name: METRIC_NAMES.modelCallsRefused,
    help: "Model calls not made because the channel's budget was spent, by strategy, channel (private ones under _private) and budget (calls_per_hour|tokens_per_day).",
    labelNames: ['strategy', 'channel', 'budget'] as const,
    registers: [this.registry],
  });

  readonly channelBacklog: Gauge<'channel'>;
  readonly longPollWaits: Gauge;

  readonly httpDuration = new Histogram({
    name: METRIC_NAMES.httpDuration,
    help: 'HTTP request duration by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  /** `readBacklogs` is called on every scrape: the gauge is always current, never stale. */
  constructor(readBacklogs: () => Promise<{ channel: string; backlog: number }[]>, readWaits: () => number = () => 0) {
    this.longPollWaits = new Gauge({
      name: METRIC_NAMES.longPollWaits,
      help: 'Long polls (GET messages?waitMs=, MCP wait_for_messages) in progress on this instance.',
      registers: [this.registry],
      collect() {
        this.set(readWaits());
      },
    });
    this.channelBacklog = new Gauge({
      name: METRIC_NAMES.channelBacklog,
      help: 'Messages not yet covered by the channel summary (lastSeq - coversThroughSeq), for the channels with the largest backlog.',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await readBacklogs();
        this.reset(); // channels that left the top list (or were summarised) disappear
        for (const r of rows) this.set({ channel: r.channel }, r.backlog);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }
}
