// The redis-delay-bridge console: plain JavaScript modules over the admin API (docs/observe.md, "Console"), no build
// step. This one starts the page: the token form, the panels' wiring, and the poll of the counts, the parked targets,
// the chart and the lateness.
import { fail, forgetToken, run, token, useToken } from './api.js';
import { loadDeadLetters, wireDeadLetters } from './dead-letters.js';
import { $, hideStatus } from './dom.js';
import { refreshDue } from './histogram.js';
import { refreshLateness } from './lateness.js';
import { wireMessages } from './messages.js';
import { startPending, wirePending } from './pending.js';
import { POLL_MS, refreshStats } from './stats.js';
import { refreshTargets, wireTargets } from './targets.js';

let pollFailed = false;

async function poll() {
  try {
    await Promise.all([refreshStats(), refreshDue(), refreshTargets()]);
    if (pollFailed) hideStatus();
    pollFailed = false;
  } catch (error) {
    pollFailed = true;
    fail('Cannot read the counts', error);
  }
  await refreshLateness();
}

function showTokenState() {
  $('token-state').textContent = token() ? 'token set for this tab' : 'no token';
}

function wireToken() {
  $('token-form').addEventListener('submit', event => {
    event.preventDefault();
    useToken($('token').value.trim());
    $('token').value = '';
    showTokenState();
    hideStatus();
    poll();
    startPending();
    run('List dead letters', () => loadDeadLetters(false));
  });
  $('token-forget').addEventListener('click', () => {
    forgetToken();
    showTokenState();
  });
}

// a module runs once the document is parsed, so the page's elements are there
showTokenState();
wireToken();
wireMessages();
wirePending();
wireDeadLetters();
wireTargets();
poll();
startPending();
run('List dead letters', () => loadDeadLetters(false));
setInterval(() => { if (!document.hidden) poll(); }, POLL_MS);
