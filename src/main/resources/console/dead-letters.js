// The dead-letter panel: list dead letters by reason, page through them, replay or delete one, replay a whole reason.
import { api, run } from './api.js';
import { $, el, say } from './dom.js';
import { instant } from './format.js';
import { findMessage } from './messages.js';

// the dead-letter reason codes (README, "Dead letters")
const REASONS = ['missing-delay', 'conflicting-delay', 'invalid-delay', 'delay-too-long', 'missing-target', 'invalid-target',
  'forbidden-target', 'invalid-message-id', 'invalid-control', 'invalid-group', 'duplicate-id', 'not-replaced', 'payload-too-large',
  'publish-failed', 'invalid-message', 'corrupt-envelope', 'payload-missing', 'expired'];

let deadCursor = null;

export async function loadDeadLetters(more) {
  const reason = $('dead-reason').value;
  const query = new URLSearchParams({ limit: '50' });
  if (reason) query.set('reason', reason);
  if (more && deadCursor) query.set('cursor', deadCursor);
  const page = await api('GET', '/dead-letters?' + query);
  const rows = $('dead-letters').tBodies[0];
  if (!more) rows.replaceChildren();
  page.deadLetters.forEach(deadLetter => rows.appendChild(deadLetterRow(deadLetter)));
  deadCursor = page.nextCursor;
  $('dead-more').hidden = !deadCursor;
  $('dead-replay-all').disabled = !reason;
  summarize();
}

function summarize() {
  const byReason = {};
  const rows = Array.from($('dead-letters').tBodies[0].rows).filter(row => !row.classList.contains('done'));
  rows.forEach(row => { byReason[row.dataset.reason] = (byReason[row.dataset.reason] || 0) + 1; });
  const parts = Object.keys(byReason).sort().map(reason => reason + ' ' + byReason[reason]);
  $('dead-summary').textContent = rows.length === 0 ? 'No dead letters listed.'
    : rows.length + ' listed' + (deadCursor ? ' (more below)' : '') + ': ' + parts.join(', ');
}

function deadLetterRow(deadLetter) {
  const row = el('tr');
  row.dataset.id = deadLetter.id;
  row.dataset.reason = deadLetter.reason;
  const idCell = el('td');
  const link = el('a', deadLetter.id);
  link.href = '#message-section';
  link.addEventListener('click', () => { $('find-id').value = deadLetter.id; run('Find', () => findMessage(deadLetter.id, false)); });
  idCell.appendChild(link);
  const actions = el('td', null, 'actions-cell');
  const replay = el('button', 'Replay');
  replay.type = 'button';
  replay.className = 'replay';
  const remove = el('button', 'Delete', 'secondary delete');
  remove.type = 'button';
  replay.addEventListener('click', () => run('Replay', async () => {
    const scheduled = await api('POST', '/dead-letters/' + encodeURIComponent(deadLetter.id) + '/replay');
    actions.replaceChildren(el('span', 'replayed: due ' + instant(scheduled.dueAt)));
    row.classList.add('done');
    summarize();
    say('Replayed ' + deadLetter.id + ' to ' + scheduled.target + ', due ' + instant(scheduled.dueAt) + '.', true);
  }));
  remove.addEventListener('click', () => {
    // the first click arms the button, the second deletes: a dead letter deleted is gone from Redis
    if (remove.dataset.armed !== 'true') {
      remove.dataset.armed = 'true';
      remove.textContent = 'Really delete?';
      remove.className = 'danger delete';
      return;
    }
    run('Delete', async () => {
      await api('DELETE', '/dead-letters/' + encodeURIComponent(deadLetter.id));
      row.remove();
      summarize();
      say('Deleted dead letter ' + deadLetter.id + ' (it stays on the dead-letter topic).', true);
    });
  });
  actions.append(replay, document.createTextNode(' '), remove);
  row.append(idCell, el('td', instant(deadLetter.deadAt), 'time'), el('td', deadLetter.reason, 'time'), el('td', deadLetter.attempts),
    el('td', deadLetter.target || '-'), actions);
  return row;
}

export function wireDeadLetters() {
  REASONS.forEach(reason => $('dead-reason').appendChild(el('option', reason)));
  const list = () => run('List dead letters', () => loadDeadLetters(false));
  $('dead-form').addEventListener('submit', event => {
    event.preventDefault();
    list();
  });
  $('dead-reason').addEventListener('change', list);
  $('dead-more').addEventListener('click', () => run('List dead letters', () => loadDeadLetters(true)));
  $('dead-replay-all').addEventListener('click', () => { $('replay-all-confirm').hidden = false; });
  $('replay-all-no').addEventListener('click', () => { $('replay-all-confirm').hidden = true; });
  $('replay-all-yes').addEventListener('click', () => run('Replay all', async () => {
    $('replay-all-confirm').hidden = true;
    const report = await api('POST', '/dead-letters/replay', { reason: $('dead-reason').value });
    say('Replayed ' + report.replayed + ' dead letters of ' + report.reason + '; ' + report.failed.length + ' could not be'
      + (report.more ? '; more remain: replay again.' : '.'), report.failed.length === 0);
    await loadDeadLetters(false);
  }));
}
