// One channel: the message timeline, the current summary with its annotations and open
// threads, and the summary's version history, kept current by the live event stream.

import { channelPath, getJson } from './api.js';
import { $, el, parseListAnnotation, show, time } from './dom.js';
import { streamChannelEvents } from './event-stream.js';

/** Messages shown when a channel opens (the newest ones); older ones are a scroll of the API away. */
const TIMELINE_LIMIT = 300;
/** Page size when catching up on new messages. */
const CATCH_UP_PAGE = 500;
const HISTORY_LIMIT = 20;
/** Polling period while the event stream is unavailable. */
const POLL_MS = 2000;
/** Wait before trying the event stream again after it failed or ended. */
const STREAM_RETRY_MS = 10000;
/** Coalesces a burst of events into one summary read. */
const SUMMARY_REFRESH_DEBOUNCE_MS = 250;

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** A list entry of an annotation: a string as is, an object as `key value · key value`. */
function describeItem(item) {
  if (item === null || typeof item !== 'object') return String(item);
  return Object.entries(item)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join(' · ');
}

export class ChannelView {
  constructor(name, { signal, setLive, onUnauthorized }) {
    this.name = name;
    this.base = channelPath(name);
    this.signal = signal;
    this.setLive = setLive;
    this.onUnauthorized = onUnauthorized;
    this.lastSeq = 0;
    this.summary = null;
    this.openThreads = new Set();
    this.threadFilter = null;
    this.loadingMessages = null;
    this.summaryTimer = null;
  }

  async open() {
    const channel = await getJson(this.base, { signal: this.signal });
    $('#channel-title').textContent = channel.name;
    $('#channel-description').textContent = channel.description || '';
    $('#timeline').replaceChildren();
    $('#timeline').removeAttribute('aria-live'); // the initial page is not an announcement
    this.lastSeq = Math.max(0, channel.lastSeq - TIMELINE_LIMIT);
    $('#thread-filter-clear').onclick = () => this.filterThread(null);
    await Promise.all([this.refreshSummary(), this.loadNewMessages(false)]);
    $('#timeline').setAttribute('aria-live', 'polite'); // new messages from now on are announced
    void this.stayLive();
  }

  // ---- data -------------------------------------------------------------------------------

  /** Appends every message after the last one shown; one load at a time. */
  loadNewMessages(animate = true) {
    this.loadingMessages ??= (async () => {
      try {
        for (;;) {
          const page = await getJson(`${this.base}/messages?afterSeq=${this.lastSeq}&limit=${CATCH_UP_PAGE}`, { signal: this.signal });
          for (const m of page) this.appendMessage(m, animate);
          if (page.length < CATCH_UP_PAGE) return;
        }
      } finally {
        this.loadingMessages = null;
      }
    })();
    return this.loadingMessages;
  }

  async refreshSummary() {
    const [summary, history] = await Promise.all([
      getJson(`${this.base}/summary`, { signal: this.signal }),
      getJson(`${this.base}/summary/history?limit=${HISTORY_LIMIT}`, { signal: this.signal }),
    ]);
    this.summary = summary;
    this.renderSummary(summary);
    this.renderHistory(history);
  }

  scheduleSummaryRefresh() {
    clearTimeout(this.summaryTimer);
    this.summaryTimer = setTimeout(() => this.refreshSummary().catch((e) => this.failed(e)), SUMMARY_REFRESH_DEBOUNCE_MS);
  }

  onEvent(type, data) {
    if (type === 'message.posted') {
      if (data && data.seq === this.lastSeq + 1) this.appendMessage(data, true);
      else if (!data || data.seq > this.lastSeq) this.loadNewMessages().catch((e) => this.failed(e));
      this.scheduleSummaryRefresh(); // pending count moves with every post
    } else if (type === 'summary.updated') {
      this.scheduleSummaryRefresh();
    }
  }

  /** The event stream when the server offers it; polling while it does not. */
  async stayLive() {
    while (!this.signal.aborted) {
      try {
        await streamChannelEvents(this.name, {
          signal: this.signal,
          onOpen: () => {
            this.setLive('live', 'Live');
            // Catch up on anything posted while the stream was down.
            this.loadNewMessages().then(() => this.refreshSummary()).catch((e) => this.failed(e));
          },
          onEvent: (type, data) => this.onEvent(type, data),
        });
      } catch (e) {
        if (this.signal.aborted) return;
      }
      this.setLive('polling', `Polling every ${POLL_MS / 1000} s`);
      const retryAt = Date.now() + STREAM_RETRY_MS;
      while (!this.signal.aborted && Date.now() < retryAt) {
        await sleep(POLL_MS, this.signal);
        if (this.signal.aborted) return;
        try {
          await this.loadNewMessages();
          await this.refreshSummary();
          this.setLive('polling', `Polling every ${POLL_MS / 1000} s`);
        } catch (e) {
          if (e.status === 401) return this.onUnauthorized();
          this.setLive('offline', 'Offline: retrying');
        }
      }
    }
  }

  failed(e) {
    if (this.signal.aborted) return;
    if (e.status === 401) this.onUnauthorized();
    else this.setLive('offline', `Error: ${e.message}`);
  }

  // ---- rendering ---------------------------------------------------------------------------

  appendMessage(m, animate) {
    if (m.seq <= this.lastSeq) return;
    this.lastSeq = m.seq;
    const timeline = $('#timeline');
    const nearBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 40;
    timeline.append(this.messageItem(m, animate));
    if (nearBottom) timeline.scrollTop = timeline.scrollHeight;
  }

  messageItem(m, animate) {
    const open = m.correlationId && this.openThreads.has(m.correlationId);
    const li = el(
      'li',
      {
        class: ['message', open && 'open-thread', animate && 'new'].filter(Boolean).join(' '),
        id: `m-${m.seq}`,
        dataset: { seq: m.seq, type: m.type, thread: m.correlationId || '' },
        hidden: this.threadFilter !== null && m.correlationId !== this.threadFilter,
      },
      el('span', { class: 'seq', 'aria-label': `message ${m.seq}` }, `#${m.seq}`),
      el(
        'div',
        { class: 'head' },
        el('span', { class: 'sender' }, m.sender),
        el('span', { class: `type type-${m.type}` }, m.type),
        m.correlationId &&
          el(
            'button',
            {
              type: 'button',
              class: `thread${open ? ' is-open' : ''}`,
              title: open ? 'Open thread: no answer yet. Show only this thread' : 'Show only this thread',
              'aria-label': `thread ${m.correlationId}${open ? ' (open)' : ''}: show only this thread`,
              onclick: () => this.filterThread(m.correlationId),
            },
            m.correlationId,
          ),
        m.inReplyTo && el('a', { class: 'reply', href: `#m-${m.inReplyTo}`, onclick: (ev) => this.jumpTo(ev, m.inReplyTo) }, `↩ #${m.inReplyTo}`),
        m.target && el('span', { class: 'reply' }, `→ ${m.target}`),
        m.topic && m.topic !== 'general' && el('span', { class: 'topic' }, `#${m.topic}`),
        el('span', { class: 'time' }, time(m.createdAt)),
      ),
      m.content && el('div', { class: 'content' }, m.content),
      m.redacted && el('div', { class: 'content redacted' }, `[redacted by ${m.redacted.by}: ${m.redacted.reason}]`),
    );
    return li;
  }

  jumpTo(event, seq) {
    event.preventDefault();
    const target = document.getElementById(`m-${seq}`);
    if (target) target.scrollIntoView({ block: 'center' });
  }

  filterThread(id) {
    this.threadFilter = id;
    show($('#thread-filter'), id !== null);
    $('#thread-filter-id').textContent = id || '';
    for (const li of $('#timeline').children) li.hidden = id !== null && li.dataset.thread !== id;
  }

  renderSummary(s) {
    const tier = s.annotations.tier;
    const parts = [
      s.version === 0 ? 'No summary yet' : `Version ${s.version}`,
      s.version === 0 ? null : `covers #1–#${s.coversThroughSeq} of ${s.lastSeq}`,
      s.pendingTokens === undefined ? `${s.pending} pending` : `${s.pending} pending (~${s.pendingTokens} tokens)`,
      tier ? `tier ${tier}` : null,
    ].filter(Boolean);
    const meta = $('#summary-meta');
    meta.replaceChildren(parts.join(' · '));
    if (s.updatedAt) meta.append(' · updated ', time(s.updatedAt), s.updatedBy ? ` by ${s.updatedBy}` : '');
    const error = $('#summary-error');
    // `degraded` outlives commits (a spent model budget); a failure is the more urgent of the two.
    const problem = s.lastError ? `The last summary job failed: ${s.lastError}` : s.degraded ? `Degraded: ${s.degraded}` : '';
    error.textContent = problem;
    show(error, Boolean(problem));
    $('#summary-text').textContent = s.text;
    $('#summary-text').dataset.version = s.version;

    const threads = parseListAnnotation(s.annotations.openThreads) || [];
    this.openThreads = new Set(threads.map((t) => t.correlationId));
    $('#open-threads').replaceChildren(
      ...threads.map((t) =>
        el('li', {}, el('strong', {}, t.type || 'request'), ` from ${t.sender || '?'} `, el('code', {}, t.correlationId), t.seq ? ` (#${t.seq})` : ''),
      ),
    );
    for (const li of $('#timeline').children) {
      const open = this.openThreads.has(li.dataset.thread);
      li.classList.toggle('open-thread', open);
      const chip = li.querySelector('.thread');
      if (chip) chip.classList.toggle('is-open', open);
    }

    $('#annotations tbody').replaceChildren(
      ...Object.entries(s.annotations)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => {
          const list = parseListAnnotation(value);
          const shown = list
            ? el('ul', {}, list.map((item) => el('li', {}, describeItem(item))))
            : value;
          return el('tr', { class: key === 'openThreads' && list && list.length > 0 ? 'highlight' : '' }, el('td', {}, key), el('td', {}, shown));
        }),
    );
  }

  renderHistory(history) {
    $('#history tbody').replaceChildren(
      ...history.map((h) =>
        el(
          'tr',
          {},
          el('td', { class: 'num' }, h.version),
          el('td', {}, h.annotations.tier || '—'),
          el('td', {}, `#${h.coversFromSeq}–#${h.coversThroughSeq}`),
          el('td', {}, h.updatedBy),
          el('td', {}, time(h.createdAt)),
        ),
      ),
    );
  }
}
