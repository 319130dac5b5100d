// Tiny DOM helpers. Text always goes in as text (never innerHTML): messages are untrusted.

/** Creates an element: el('td', {class: 'num'}, 'text', childNode, …). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector) => document.querySelector(selector);

export function show(node, visible) {
  node.hidden = !visible;
}

/** A timestamp as local date and time, with the ISO value for machines and tooltips. */
export function time(iso) {
  if (!iso) return el('span', { class: 'muted' }, '—');
  const d = new Date(iso);
  return el('time', { datetime: d.toISOString(), title: d.toISOString() }, d.toLocaleString());
}

/** Annotations hold JSON arrays encoded as strings (DESIGN §3): decode when they are. */
export function parseListAnnotation(value) {
  if (typeof value !== 'string' || !value.startsWith('[')) return null;
  try {
    const parsed = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * A message's text, or what stands in for it: a redacted message (a tombstone, `redacted: {at,
 * by, reason}` with `content: null`) reads "redacted by X: reason", never "null".
 */
export function contentNode(m, className = 'content') {
  if (m.redacted) {
    const r = m.redacted;
    return el('div', { class: `${className} redacted`, title: r.at ? `redacted ${new Date(r.at).toISOString()}` : undefined }, `redacted by ${r.by || 'someone'}${r.reason ? `: ${r.reason}` : ''}`);
  }
  if (m.content === null || m.content === undefined || m.content === '') return null;
  return el('div', { class: className }, m.content);
}

/** A badge saying a channel is archived (read-only); nothing when it is not, or the service does not say. */
export const archivedBadge = (channel) => (channel && channel.archived === true ? el('span', { class: 'state state-archived', title: 'Archived: read-only' }, 'archived') : null);
