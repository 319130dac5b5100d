// Qhorus dashboard: a hash router over four views (sign-in, channel list, one channel, the inbox).

import { getInbox, token } from './api.js';
import { renderChannels } from './channels-view.js';
import { ChannelView } from './channel-view.js';
import { InboxView, showInboxCount } from './inbox-view.js';
import { $, show } from './dom.js';

/** How often the channel list refreshes itself while it is on screen. */
const LIST_REFRESH_MS = 5000;

let current = null; // AbortController of the view on screen

function setLive(mode, text) {
  const status = $('#live-status');
  status.dataset.mode = mode;
  status.textContent = text;
  show(status, mode !== 'off');
}

function showView(id) {
  for (const view of ['#login-view', '#channels-view', '#channel-view', '#inbox-view']) show($(view), view === id);
  show($('#sign-out'), id !== '#login-view');
  show($('#page-error'), false);
}

function signOut(message = '') {
  token.clear();
  $('#login-error').textContent = message;
  location.hash = '#/';
  route();
}

const unauthorized = () => signOut('That token was rejected (unknown or revoked). Paste a valid one.');

function pageError(e) {
  if (e.name === 'AbortError') return;
  if (e.status === 401) return unauthorized();
  $('#page-error').textContent = e.status === 404 ? 'No such channel (or it is private to other agents).' : `Could not load: ${e.message}`;
  show($('#page-error'), true);
}

async function route() {
  current?.abort();
  current = new AbortController();
  const { signal } = current;
  setLive('off', '');
  if (!token.get()) {
    showView('#login-view');
    $('#token-input').focus();
    return;
  }
  // How many requests wait on the signed-in agent, in the navigation whatever the view (the count is in the header of a one-item page).
  getInbox({ limit: 1, signal }).then((inbox) => showInboxCount(inbox.total), () => {});
  const match = /^#\/channels\/([^/]+)$/.exec(location.hash);
  try {
    if (location.hash === '#/inbox') {
      showView('#inbox-view');
      document.title = 'Inbox · Qhorus';
      await new InboxView({ signal, setLive, onUnauthorized: unauthorized }).open();
    } else if (match) {
      showView('#channel-view');
      document.title = `${decodeURIComponent(match[1])} · Qhorus`;
      await new ChannelView(decodeURIComponent(match[1]), { signal, setLive, onUnauthorized: unauthorized }).open();
    } else {
      showView('#channels-view');
      document.title = 'Channels · Qhorus';
      await renderChannels({ signal });
      const timer = setInterval(() => {
        if (document.visibilityState === 'visible') renderChannels({ signal }).catch(pageError);
      }, LIST_REFRESH_MS);
      $('#show-archived').onchange = () => renderChannels({ signal }).catch(pageError);
      signal.addEventListener('abort', () => clearInterval(timer));
    }
    $('#main').focus({ preventScroll: true });
  } catch (e) {
    pageError(e);
  }
}

$('#login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('#token-input').value.trim();
  if (!value) return;
  token.set(value);
  $('#token-input').value = '';
  $('#login-error').textContent = '';
  route();
});
$('#sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => {
  if (!location.hash.startsWith('#m-')) route();
});
route();
