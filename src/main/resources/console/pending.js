// The pending-messages table: the backlog (GET /api/messages) filtered by due range and target, page by page, with
// its totals; a message opens in the message panel, and each row can be cancelled or rescheduled in place.
// Filters, columns and row actions are lists: one more of each is one more entry.
import { api, run } from './api.js';
import { $, el, say } from './dom.js';
import { instant, number, relative } from './format.js';
import { dueTimeBody, findMessage } from './messages.js';

const PAGE_SIZE = 20;
// A rare target can leave pages empty while the listing goes on (each call examines a bounded part of the backlog):
// follow the cursor this many times at most before showing an empty page with Next.
const MAX_EMPTY_CALLS = 20;

// The filters: an input of the form each, and the query parameter it fills; an empty input is left out.
const FILTERS = [
  { input: 'pending-due-after', param: 'dueAfter' },
  { input: 'pending-due-before', param: 'dueBefore' },
  { input: 'pending-target', param: 'target' },
];

// The columns: a heading, and what the cell shows of a listed message.
const COLUMNS = [
  { heading: 'id', cell: message => openLink(message.id) },
  { heading: 'due', className: 'time', cell: message => instant(message.dueAt) + ' (' + relative(message.dueAt - Date.now()) + ')' },
  { heading: 'target', cell: message => message.target || '-' },
  { heading: 'attempts', cell: message => message.attempts },
  { heading: 'size', className: 'time', cell: message => number(message.size) + ' B' },
];

// The actions of a row: a button each; act(message, row, cell) does it in the row's action cell.
const ROW_ACTIONS = [
  { label: 'Reschedule', className: 'secondary reschedule', act: askNewDueTime },
  { label: 'Cancel', className: 'danger cancel', act: confirmCancel },
];

// The filters in use (read when the form is submitted, so typing alone changes nothing), where the shown page starts
// and how many entries come before it, the starts of the pages before it (for Previous), and the next page's cursor.
let query = {};
let page = { cursor: null, offset: 0 };
let earlier = [];
let nextCursor = null;

function listPath(cursor) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  Object.entries(query).forEach(([name, value]) => params.set(name, value));
  if (cursor) params.set('cursor', cursor);
  return '/messages?' + params;
}

// One page of the backlog from a cursor; empty pages of a sparse filter are followed a few times. The totals are the
// first call's.
async function fetchPage(cursor) {
  let answer = await api('GET', listPath(cursor));
  const totals = answer.totals;
  for (let calls = 1; answer.messages.length === 0 && answer.nextCursor && calls < MAX_EMPTY_CALLS; calls++) {
    answer = await api('GET', listPath(answer.nextCursor));
  }
  return { messages: answer.messages, nextCursor: answer.nextCursor, totals };
}

export async function loadPending() {
  const answer = await fetchPage(page.cursor);
  nextCursor = answer.nextCursor;
  const rows = $('pending').tBodies[0];
  rows.replaceChildren();
  answer.messages.forEach(message => rows.appendChild(messageRow(message)));
  if (answer.messages.length === 0) {
    const empty = el('td', 'No pending message matches.', 'muted');
    empty.colSpan = COLUMNS.length + 1;
    rows.appendChild(el('tr')).appendChild(empty);
  }
  showPosition(answer.messages.length, answer.totals);
}

function showPosition(shownCount, totals) {
  const matching = (totals.exact ? '' : '~') + number(totals.matching);
  const inRange = number(totals.inDueRange) + (query.dueAfter || query.dueBefore ? ' in the due range' : ' pending');
  const covered = query.target ? matching + ' matching of ' + inRange : inRange;
  $('pending-totals').textContent = '(' + covered + (totals.exact ? '' : '; estimated from a sample') + ')';
  $('pending-totals').dataset.matching = String(totals.matching);
  $('pending-page').textContent = shownCount === 0 ? 'nothing on this page'
    : number(page.offset + 1) + '-' + number(page.offset + shownCount) + ' of ' + matching;
  $('pending-page').dataset.offset = String(page.offset);
  $('pending-previous').disabled = earlier.length === 0;
  $('pending-next').disabled = !nextCursor;
  $('pending-next').dataset.shown = String(shownCount);
}

function openLink(id) {
  const link = el('a', id);
  link.href = '#message-section';
  link.className = 'open';
  link.addEventListener('click', () => { $('find-id').value = id; run('Open ' + id, () => findMessage(id, false)); });
  return link;
}

function messageRow(message) {
  const row = el('tr');
  row.dataset.id = message.id;
  COLUMNS.forEach(column => {
    const cell = el('td', null, column.className);
    const shown = column.cell(message);
    if (shown instanceof Node) cell.appendChild(shown); else cell.textContent = String(shown);
    row.appendChild(cell);
  });
  const actions = el('td', null, 'actions-cell');
  showActions(message, row, actions);
  row.appendChild(actions);
  return row;
}

function showActions(message, row, cell) {
  cell.replaceChildren();
  ROW_ACTIONS.forEach((action, i) => {
    const button = el('button', action.label, action.className);
    button.type = 'button';
    button.addEventListener('click', () => action.act(message, row, cell));
    if (i > 0) cell.appendChild(document.createTextNode(' '));
    cell.appendChild(button);
  });
}

// Cancel asks once more in the row: a cancelled message is never delivered.
function confirmCancel(message, row, cell) {
  const yes = el('button', 'Yes, cancel', 'danger cancel-yes');
  const no = el('button', 'No', 'secondary');
  yes.type = no.type = 'button';
  no.addEventListener('click', () => showActions(message, row, cell));
  yes.addEventListener('click', () => run('Cancel ' + message.id, async () => {
    await api('DELETE', '/messages/' + encodeURIComponent(message.id));
    row.classList.add('done');
    cell.replaceChildren(el('span', 'cancelled', 'outcome'));
    say('Cancelled ' + message.id + ': it will not be delivered.', true);
  }));
  cell.replaceChildren(el('span', 'Never deliver it? '), yes, document.createTextNode(' '), no);
}

// Reschedule takes the new due time in the row, as the message panel does: a delay in ms, an ISO-8601 duration, or
// a time.
function askNewDueTime(message, row, cell) {
  const form = el('form', null, 'inline');
  form.autocomplete = 'off';
  const input = el('input', null, 'due-input');
  input.type = 'text';
  input.placeholder = 'PT30M, 60000 or 2026-12-01T10:00:00Z';
  input.setAttribute('aria-label', 'new due time of ' + message.id);
  const ok = el('button', 'Set', 'reschedule-ok');
  ok.type = 'submit';
  const back = el('button', 'Back', 'secondary');
  back.type = 'button';
  back.addEventListener('click', () => showActions(message, row, cell));
  form.addEventListener('submit', event => {
    event.preventDefault();
    run('Reschedule ' + message.id, async () => {
      const changed = await api('PUT', '/messages/' + encodeURIComponent(message.id) + '/due', dueTimeBody(input.value));
      row.classList.add('done');
      cell.replaceChildren(el('span', 'now due ' + instant(changed.dueAt), 'outcome'));
      say('Rescheduled ' + message.id + ': due ' + instant(changed.dueAt) + ' (' + relative(changed.dueAt - Date.now())
        + '). Reload to see it in its new place.', true);
    });
  });
  form.append(input, ok, back);
  cell.replaceChildren(form);
  input.focus();
}

function readFilters() {
  query = {};
  FILTERS.forEach(filter => {
    const value = $(filter.input).value.trim();
    if (value) query[filter.param] = value;
  });
}

function firstPage() {
  readFilters();
  page = { cursor: null, offset: 0 };
  earlier = [];
  return run('List pending messages', loadPending);
}

export function wirePending() {
  const head = el('tr');
  COLUMNS.forEach(column => head.appendChild(el('th', column.heading)));
  head.appendChild(el('th'));
  $('pending').tHead.replaceChildren(head);
  $('pending-form').addEventListener('submit', event => {
    event.preventDefault();
    firstPage();
  });
  $('pending-clear').addEventListener('click', () => {
    FILTERS.forEach(filter => { $(filter.input).value = ''; });
    firstPage();
  });
  $('pending-reload').addEventListener('click', () => run('List pending messages', loadPending));
  $('pending-next').addEventListener('click', () => run('List pending messages', async () => {
    if (!nextCursor) return;
    const shown = Number($('pending-next').dataset.shown || '0');
    earlier.push(page);
    page = { cursor: nextCursor, offset: page.offset + shown };
    await loadPending();
  }));
  $('pending-previous').addEventListener('click', () => run('List pending messages', async () => {
    if (earlier.length === 0) return;
    page = earlier.pop();
    await loadPending();
  }));
}

export const startPending = firstPage;
