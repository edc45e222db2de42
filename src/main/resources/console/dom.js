// Building the page: every text shown goes in through textContent, never parsed as HTML.

export const $ = id => document.getElementById(id);

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

export function svg(tag, attributes) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, String(value)));
  return node;
}

// The status line under the header: what an action did, or why it failed.
export function say(text, ok) {
  const status = $('status');
  status.textContent = text;
  status.className = ok ? 'status ok' : 'status';
  status.hidden = false;
}

export function hideStatus() {
  $('status').hidden = true;
}
