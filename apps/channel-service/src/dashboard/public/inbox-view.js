// The signed-in agent's inbox (a person is an agent with a token): each request waiting on them,
// answered in place. Kept current by the inbox long poll (GET /inbox?waitMs= with If-None-Match).

import { channelPath, getInbox, postJson } from './api.js';
import { $, contentNode, el, show, time } from './dom.js';

/** One inbox long poll: below the service's default QHORUS_LONG_POLL_MAX_MS (30 s). */
const INBOX_WAIT_MS = 25000;
/** Pause before asking again after a failed read. */
const RETRY_MS = 5000;
/** The answers that close a request (DESIGN §2), the usual one first. */
const ANSWER_TYPES = { QUERY: ['RESPONSE', 'DECLINE', 'DONE'], COMMAND: ['DONE', 'DECLINE'] };
/** Answers that need words (a bare DONE says it all). */
const CONTENT_REQUIRED = new Set(['RESPONSE', 'DECLINE']);

const keyOf = (o) => JSON.stringify([o.channel, o.correlationId, o.seq, o.owner]);

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** The count in the navigation: how many requests wait on the signed-in agent. */
export function showInboxCount(total) {
  const count = $('#inbox-count');
  count.textContent = total > 0 ? String(total) : '';
  count.setAttribute('aria-label', `${total} waiting`);
  show(count, total > 0);
}

export class InboxView {
  constructor({ signal, setLive, onUnauthorized }) {
    this.signal = signal;
    this.setLive = setLive;
    this.onUnauthorized = onUnauthorized;
    this.etag = undefined;
    this.waitMs = INBOX_WAIT_MS;
  }

  async open() {
    $('#inbox-list').replaceChildren();
    this.render(await getInbox({ signal: this.signal }));
    void this.stayLive();
  }

  /** Reads again now (after an answer): the long poll would see it too, a moment later. */
  async refresh() {
    this.render(await getInbox({ signal: this.signal }));
  }

  async stayLive() {
    while (!this.signal.aborted) {
      try {
        this.setLive('live', 'Live');
        const change = await getInbox({ etag: this.etag, waitMs: this.waitMs, signal: this.signal });
        if (change.changed) this.render(change);
        if (!this.waitMs) await sleep(RETRY_MS, this.signal);
      } catch (e) {
        if (this.signal.aborted) return;
        if (e.status === 401) return this.onUnauthorized();
        // A service without the inbox long poll (or with a lower bound) refuses waitMs: poll instead.
        if (e.status === 400 && this.waitMs) this.waitMs = 0;
        this.setLive('offline', 'Offline: retrying');
        await sleep(RETRY_MS, this.signal);
      }
    }
  }

  /** Shows the inbox, keeping the items already on screen (and whatever is typed in them). */
  render(inbox) {
    this.etag = inbox.etag;
    const list = $('#inbox-list');
    const existing = new Map([...list.children].map((li) => [li.dataset.key, li]));
    const items = inbox.items.map((o) => existing.get(keyOf(o)) ?? this.item(o));
    list.replaceChildren(...items);
    show($('#inbox-empty'), inbox.items.length === 0);
    const more = inbox.total - inbox.items.length;
    $('#inbox-more').textContent = more > 0 ? `${more} more not shown: answer some to see them.` : '';
    show($('#inbox-more'), more > 0);
    showInboxCount(inbox.total);
  }

  item(o) {
    const answers = ANSWER_TYPES[o.type] ?? ['DONE', 'DECLINE'];
    const id = `answer-${o.channel}-${o.seq}`;
    const error = el('p', { class: 'error', role: 'alert' });
    const content = el('textarea', { id, name: 'content', rows: 2 });
    const type = el('select', { name: 'type', 'aria-label': 'Answer type' }, answers.map((t) => el('option', { value: t }, t)));
    const button = el('button', { type: 'submit' }, 'Send');
    const form = el(
      'form',
      { class: 'answer', onsubmit: (event) => this.answer(event, o, { type, content, error, button }) },
      el('label', { for: id }, 'Your answer'),
      content,
      el('div', { class: 'composer-row' }, type, button, error),
    );
    return el(
      'li',
      { class: 'inbox-item', dataset: { key: keyOf(o), channel: o.channel, thread: o.correlationId, seq: o.seq } },
      el(
        'div',
        { class: 'head' },
        el('a', { href: `#/channels/${encodeURIComponent(o.channel)}` }, o.channel),
        el('span', { class: 'seq' }, `#${o.seq}`),
        el('span', { class: `type type-${o.type}` }, o.type),
        el('span', {}, 'from ', el('strong', {}, o.opener)),
        el('span', { class: `reason reason-${o.reason}` }, o.reason === 'owed' ? 'to you' : 'open to anyone'),
        el('code', { class: 'thread-id', title: 'thread (correlation id)' }, o.correlationId),
        el('span', { class: 'time' }, time(o.openedAt)),
      ),
      contentNode(o),
      form,
    );
  }

  /** Posts the answer into the request's thread (correlationId) as a reply to the request (inReplyTo). */
  async answer(event, o, { type, content, error, button }) {
    event.preventDefault();
    const text = content.value.trim();
    if (!text && CONTENT_REQUIRED.has(type.value)) {
      error.textContent = `A ${type.value} needs a few words.`;
      content.focus();
      return;
    }
    error.textContent = '';
    button.disabled = true;
    try {
      const body = { type: type.value, correlationId: o.correlationId, inReplyTo: o.seq, ...(text ? { content: text } : {}) };
      await postJson(`${channelPath(o.channel)}/messages`, body, { signal: this.signal });
      await this.refresh();
    } catch (e) {
      if (this.signal.aborted) return;
      if (e.status === 401) return this.onUnauthorized();
      error.textContent = `Not sent: ${e.message}`;
    } finally {
      button.disabled = false;
    }
  }
}
