// The message panel: find one message by id, show its facts, headers and (on request) body; reschedule or cancel it.
import { api, run } from './api.js';
import { $, el, say } from './dom.js';
import { instant, number, relative } from './format.js';

let shownId = null;

function fact(list, name, value) {
  if (value === undefined || value === null) return;
  const dt = el('dt', name);
  const dd = el('dd', value);
  dd.id = 'fact-' + name;
  list.append(dt, dd);
}

export async function findMessage(id, withBody) {
  const message = await api('GET', '/messages/' + encodeURIComponent(id) + (withBody ? '?body=true' : ''));
  shownId = id;
  const now = Date.now();
  const list = $('message-facts');
  list.replaceChildren();
  fact(list, 'id', message.id);
  fact(list, 'state', message.state);
  if (message.dueAt !== undefined) fact(list, 'due', instant(message.dueAt) + ' (' + relative(message.dueAt - now) + ')');
  if (message.leaseUntil !== undefined) fact(list, 'lease until', instant(message.leaseUntil));
  if (message.deliveredAt !== undefined) fact(list, 'delivered', instant(message.deliveredAt));
  if (message.cancelledAt !== undefined) fact(list, 'cancelled', instant(message.cancelledAt));
  if (message.deadAt !== undefined) fact(list, 'dead since', instant(message.deadAt));
  fact(list, 'reason', message.reason);
  fact(list, 'detail', message.detail);
  fact(list, 'target', message.target);
  fact(list, 'origin', message.origin);
  fact(list, 'attempts', message.attempts);
  fact(list, 'key', message.key !== undefined ? message.key : message.keyBase64 !== undefined ? 'base64: ' + message.keyBase64 : undefined);
  fact(list, 'size', message.size === undefined ? undefined : number(message.size) + ' bytes in Redis');
  if (message.properties) fact(list, 'properties', JSON.stringify(message.properties));
  if (message.tombstone) fact(list, 'body', 'none (a Kafka tombstone)');
  if (message.unreadable) fact(list, 'unreadable', message.unreadable);

  const rows = $('message-headers').tBodies[0];
  rows.replaceChildren();
  (message.headers || []).forEach(header => {
    const row = el('tr');
    const value = header.value !== undefined ? header.value : header.valueBase64 !== undefined ? 'base64: ' + header.valueBase64 : '(no value)';
    row.append(el('td', header.name), el('td', value));
    rows.appendChild(row);
  });
  const body = $('message-body');
  body.hidden = !withBody;
  body.textContent = !withBody ? '' : message.body !== undefined ? message.body
    : message.bodyBase64 !== undefined ? '(not UTF-8, base64) ' + message.bodyBase64 : '(no body)';
  $('show-body').hidden = withBody || message.tombstone === true || !message.headers;
  $('message-actions').hidden = message.state !== 'pending';
  $('cancel-confirm').hidden = true;
  $('cancel').hidden = false;
  $('message').hidden = false;
}

// What the operator typed as the new due time: a delay in ms, an ISO-8601 duration, or an instant.
export function dueTimeBody(text) {
  const value = text.trim();
  if (/^\d+$/.test(value)) return { delayMs: Number(value) };
  if (/^P/i.test(value)) return { delayMs: value };
  return { deliverAt: value };
}

export function wireMessages() {
  $('find-form').addEventListener('submit', event => {
    event.preventDefault();
    run('Find', () => findMessage($('find-id').value.trim(), false));
  });
  $('show-body').addEventListener('click', () => run('Show body', () => findMessage(shownId, true)));
  $('reschedule-form').addEventListener('submit', event => {
    event.preventDefault();
    run('Reschedule', async () => {
      const changed = await api('PUT', '/messages/' + encodeURIComponent(shownId) + '/due', dueTimeBody($('reschedule-value').value));
      say('Rescheduled ' + shownId + ': due ' + instant(changed.dueAt) + '.', true);
      $('reschedule-value').value = '';
      await findMessage(shownId, false);
    });
  });
  $('cancel').addEventListener('click', () => { $('cancel').hidden = true; $('cancel-confirm').hidden = false; });
  $('cancel-no').addEventListener('click', () => { $('cancel').hidden = false; $('cancel-confirm').hidden = true; });
  $('cancel-yes').addEventListener('click', () => run('Cancel', async () => {
    await api('DELETE', '/messages/' + encodeURIComponent(shownId));
    say('Cancelled ' + shownId + ': it will not be delivered.', true);
    await findMessage(shownId, false);
  }));
}
