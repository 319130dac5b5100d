// The channel list: each channel with its backlog and the state of its summary.

import { channelPath, getJson, mapLimited } from './api.js';
import { $, archivedBadge, el, show, time } from './dom.js';

/** Summaries fetched at once when listing channels. */
const SUMMARY_FETCH_CONCURRENCY = 6;

/** A short, colour-independent description of where a channel's summary stands. */
export function summaryState(summary) {
  if (!summary) return { label: 'unavailable', kind: 'error' };
  if (summary.lastError) return { label: `failing: ${summary.lastError}`, kind: 'error' };
  if (summary.degraded) return { label: `v${summary.version}, degraded: ${summary.degraded}`, kind: 'pending' };
  if (summary.version === 0) return { label: summary.pending > 0 ? 'none yet' : 'empty channel', kind: 'none' };
  if (summary.pending > 0) return { label: `v${summary.version}, ${summary.pending} pending`, kind: 'pending' };
  return { label: `v${summary.version}, up to date`, kind: 'current' };
}

export const stateBadge = (state) => el('span', { class: `state state-${state.kind}` }, state.label);

function row(channel, summary) {
  return el(
    'tr',
    { dataset: { channel: channel.name } },
    el('th', { scope: 'row' }, el('a', { href: `#/channels/${encodeURIComponent(channel.name)}` }, channel.name), archivedBadge(channel) && ' ', archivedBadge(channel)),
    el('td', { class: 'num' }, channel.lastSeq),
    el('td', { class: 'num', 'data-col': 'backlog' }, summary ? summary.pending : '—'),
    el('td', { 'data-col': 'summary' }, stateBadge(summaryState(summary))),
    el('td', {}, channel.summariser),
    el('td', {}, time(summary && summary.updatedAt)),
  );
}

/**
 * The channels to list: with the toggle on, archived ones too (`?archived=true`). A service that
 * does not archive channels refuses the parameter (400): the toggle is then turned off, saying why.
 */
async function listChannels(signal) {
  const toggle = $('#show-archived');
  const note = $('#archived-note');
  if (!toggle.checked) {
    show(note, false);
    return getJson('/channels', { signal });
  }
  try {
    const channels = await getJson('/channels?archived=true', { signal });
    note.textContent = `${channels.filter((c) => c.archived === true).length} archived (read-only) channels shown.`;
    show(note, true);
    return channels;
  } catch (e) {
    if (e.status !== 400) throw e;
    toggle.checked = false;
    note.textContent = 'This service does not archive channels.';
    show(note, true);
    return getJson('/channels', { signal });
  }
}

/** Loads and renders the list; returns the number of channels. */
export async function renderChannels({ signal }) {
  const channels = await listChannels(signal);
  const summaries = await mapLimited(channels, SUMMARY_FETCH_CONCURRENCY, (c) =>
    getJson(`${channelPath(c.name)}/summary`, { signal }).catch((e) => {
      if (e.status === 401) throw e;
      return null;
    }),
  );
  const body = $('#channels-table tbody');
  body.replaceChildren(...channels.map((c, i) => row(c, summaries[i])));
  show($('#channels-empty'), channels.length === 0);
  show($('#channels-table'), channels.length > 0);
  return channels.length;
}
