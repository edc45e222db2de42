// The targets panel: the targets parked for failing, paused by an operator, or returning their parked messages
// (GET /targets), each with its count of parked messages; pause any target, resume a paused one.
import { api, run } from './api.js';
import { $, el, say } from './dom.js';
import { instant, number, relative } from './format.js';

export async function refreshTargets() {
  const answer = await api('GET', '/targets');
  const rows = $('targets').querySelector('tbody');
  rows.replaceChildren();
  $('targets-summary').textContent = answer.targets.length === 0 ? 'every target is delivering'
    : number(answer.parked) + ' messages parked';
  answer.targets.forEach(target => {
    const row = el('tr');
    row.dataset.target = target.target;
    row.appendChild(el('td', target.target));
    row.appendChild(el('td', target.state, 'state-' + target.state));
    row.appendChild(el('td', instant(target.since), 'time'));
    row.appendChild(el('td', number(target.parked)));
    row.appendChild(el('td', target.nextProbeAt === null ? '' : relative(target.nextProbeAt - answer.redisTime)));
    const action = el('td', null, 'actions-cell');
    const paused = target.state === 'paused';
    const button = el('button', paused ? 'Resume' : 'Pause', paused ? '' : 'secondary');
    button.type = 'button';
    button.addEventListener('click', () => change(paused ? 'resume' : 'pause', target.target));
    action.appendChild(button);
    row.appendChild(action);
    rows.appendChild(row);
  });
}

async function change(verb, target) {
  await run((verb === 'pause' ? 'Pause ' : 'Resume ') + target, async () => {
    await api('POST', '/targets/' + verb, { target });
    say(verb === 'pause' ? target + ' paused: its messages are parked until it is resumed'
      : target + ' resumed: its parked messages return to the due set', true);
    await refreshTargets();
  });
}

export function wireTargets() {
  $('pause-form').addEventListener('submit', event => {
    event.preventDefault();
    const target = $('pause-target').value.trim();
    if (target) change('pause', target);
  });
}
