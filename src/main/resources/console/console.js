// The redis-delay-bridge console: plain JavaScript over the admin API (docs/operations.md, "Console").
// The admin token is kept in sessionStorage (this tab only, gone when it closes) and sent as the API expects:
// Authorization: Bearer <token>. Everything shown is built with textContent, never parsed as HTML.
'use strict';
(function () {
  const TOKEN_KEY = 'redis-delay-bridge.admin-token';
  const POLL_MS = 5000;
  const HISTORY = 60; // polls kept for the trend: 5 minutes
  const API = '../api';
  const METRICS = '../observe/metrics';
  const COUNTS = ['pending', 'inFlight', 'delivered', 'cancelled', 'dead'];
  // the dead-letter reason codes (README, "Dead letters")
  const REASONS = ['missing-delay', 'conflicting-delay', 'invalid-delay', 'delay-too-long', 'missing-target', 'invalid-target',
    'forbidden-target', 'invalid-message-id', 'invalid-control', 'payload-too-large', 'publish-failed', 'invalid-message',
    'corrupt-envelope', 'payload-missing'];

  const history = {};
  COUNTS.forEach(name => { history[name] = []; });
  let shownId = null;
  let deadCursor = null;
  let pollFailed = false;

  const $ = id => document.getElementById(id);

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function svg(tag, attributes) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, String(value)));
    return node;
  }

  // --- formatting -----------------------------------------------------------------------------------
  const number = value => value === null || value === undefined ? '-' : Number(value).toLocaleString('en-US');
  const instant = ms => new Date(ms).toISOString().replace('.000Z', 'Z');

  function duration(ms) {
    if (ms === null || ms === undefined || Number.isNaN(ms)) return '-';
    const abs = Math.abs(ms);
    if (abs < 1000) return Math.round(ms) + ' ms';
    if (abs < 60000) return (ms / 1000).toFixed(abs < 10000 ? 2 : 1) + ' s';
    const s = Math.round(abs / 1000);
    const text = s < 3600 ? Math.floor(s / 60) + 'm ' + (s % 60) + 's' : Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
    return (ms < 0 ? '-' : '') + text;
  }

  const relative = ms => ms >= 0 ? 'in ' + duration(ms) : duration(-ms) + ' ago';

  // --- the API ---------------------------------------------------------------------------------------
  const token = () => sessionStorage.getItem(TOKEN_KEY) || '';

  async function api(method, path, body) {
    const headers = {};
    if (token()) headers.Authorization = 'Bearer ' + token();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(API + path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let json = null;
    if (text && (response.headers.get('Content-Type') || '').startsWith('application/json')) {
      try { json = JSON.parse(text); } catch (ignored) { json = null; }
    }
    if (!response.ok) {
      const error = new Error((json && json.error) || (response.status + ' ' + response.statusText));
      error.status = response.status;
      throw error;
    }
    return json;
  }

  function say(text, ok) {
    const status = $('status');
    status.textContent = text;
    status.className = ok ? 'status ok' : 'status';
    status.hidden = false;
  }

  function fail(what, error) {
    const hint = error.status === 401 ? ' Enter the admin token (bridge.admin.token) above.'
      : error.status === 403 ? ' (A read-only token cannot change anything; see docs/operations.md, "Admin HTTP API".)' : '';
    say(what + ': ' + error.message + hint, false);
  }

  // --- counts and their trend ------------------------------------------------------------------------
  async function refreshStats() {
    const stats = await api('GET', '/stats');
    COUNTS.forEach(name => {
      const value = stats.counts[name];
      const tile = $('count-' + name);
      tile.textContent = number(value);
      tile.dataset.value = value;
      const series = history[name];
      series.push(value);
      if (series.length > HISTORY) series.shift();
      showTrend(name, series);
    });
    $('overdue').textContent = duration(stats.oldestOverdueMs);
    $('next-due').textContent = stats.nextDueAt === null ? 'nothing pending' : 'next due ' + relative(stats.nextDueAt - stats.redisTime);
    $('counts-updated').textContent = 'Redis time ' + instant(stats.redisTime) + ', every ' + POLL_MS / 1000 + ' s';
  }

  function showTrend(name, series) {
    const trend = $('trend-' + name);
    const change = series[series.length - 1] - series[0];
    const seconds = Math.round((series.length - 1) * POLL_MS / 1000);
    const span = seconds < 60 ? seconds + ' s' : duration(seconds * 1000);
    trend.textContent = series.length < 2 ? '' : (change > 0 ? '\u25b2 +' : change < 0 ? '\u25bc ' : '= ') + number(change) + ' in ' + span;
    trend.className = 'trend' + (change > 0 ? ' up' : change < 0 ? ' down' : '');
    const spark = $('spark-' + name);
    spark.replaceChildren();
    if (series.length < 2) return;
    const max = Math.max(...series);
    const min = Math.min(...series);
    const points = series.map((value, i) => {
      const x = (i / (HISTORY - 1)) * 120;
      const y = max === min ? 12 : 22 - ((value - min) / (max - min)) * 20;
      return x.toFixed(1) + ',' + y.toFixed(1);
    });
    spark.appendChild(svg('polyline', { points: points.join(' ') }));
  }

  // --- what falls due in the next hour ------------------------------------------------------------------
  async function refreshDue() {
    const histogram = await api('GET', '/stats/due-histogram?bucketMs=60000&buckets=60');
    const chart = $('due-chart');
    chart.replaceChildren();
    const counts = histogram.counts;
    const max = Math.max(1, ...counts);
    const width = 640 / counts.length;
    let total = 0;
    counts.forEach((count, i) => {
      total += count;
      const height = count === 0 ? 0 : Math.max(2, (count / max) * 140);
      const bar = svg('rect', { x: (i * width + 0.5).toFixed(2), y: (160 - height).toFixed(2), width: (width - 1).toFixed(2), height: height.toFixed(2), 'data-count': count });
      const title = svg('title');
      title.textContent = '+' + i + ' to +' + (i + 1) + ' min (from ' + instant(histogram.from + i * histogram.bucketMs) + '): ' + number(count);
      bar.appendChild(title);
      chart.appendChild(bar);
    });
    const label = svg('text', { x: 4, y: 12 });
    label.textContent = 'max ' + number(max) + ' per minute';
    chart.appendChild(label);
    chart.dataset.total = total;
    $('due-overdue').textContent = number(histogram.overdue);
    $('due-later').textContent = number(histogram.later);
  }

  // --- lateness, from this instance's Prometheus metrics --------------------------------------------------
  // Reads bridge_delivery_lateness_*: a summary's published quantiles, or a histogram's buckets (summed over
  // labels such as the broker kind), in milliseconds or seconds as the name says.
  function lateness(text) {
    const quantiles = {};
    const buckets = {};
    let count = 0;
    text.split('\n').forEach(line => {
      const match = /^(bridge_delivery_lateness[a-zA-Z0-9_]*)(?:\{([^}]*)\})?\s+(\S+)/.exec(line);
      if (!match) return;
      const name = match[1];
      const labels = {};
      (match[2] || '').replace(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g, (all, key, value) => { labels[key] = value; return all; });
      const value = Number(match[3]);
      const scale = name.indexOf('_seconds') >= 0 ? 1000 : 1;
      if (labels.quantile !== undefined && name.indexOf('_bucket') < 0) {
        quantiles[labels.quantile] = (quantiles[labels.quantile] || 0) + value * scale;
      } else if (name.endsWith('_bucket') && labels.le !== undefined) {
        const le = labels.le === '+Inf' ? Infinity : Number(labels.le) * scale;
        buckets[le] = (buckets[le] || 0) + value;
      } else if (name.endsWith('_count')) {
        count += value;
      }
    });
    const result = { count, approximate: false };
    if (Object.keys(quantiles).length > 0) {
      ['0.5', '0.9', '0.99'].forEach(q => { result[q] = quantiles[q]; });
      return result;
    }
    const bounds = Object.keys(buckets).map(Number).sort((a, b) => a - b);
    const total = bounds.length ? buckets[bounds[bounds.length - 1]] : 0;
    result.approximate = true;
    ['0.5', '0.9', '0.99'].forEach(q => {
      if (total === 0) return;
      const rank = Number(q) * total;
      let previousBound = 0;
      let previousCount = 0;
      for (const bound of bounds) {
        const cumulative = buckets[bound];
        if (cumulative >= rank) {
          result[q] = bound === Infinity ? previousBound
            : previousBound + (bound - previousBound) * ((rank - previousCount) / Math.max(1, cumulative - previousCount));
          return;
        }
        previousBound = bound;
        previousCount = cumulative;
      }
    });
    return result;
  }

  async function refreshLateness() {
    let text;
    try {
      const response = await fetch(METRICS, { cache: 'no-store' });
      if (!response.ok) throw new Error(response.status + ' ' + response.statusText);
      text = await response.text();
    } catch (error) {
      $('lateness-note').textContent = 'Metrics not readable at /observe/metrics from this page (' + error.message
        + '); they are served on camel.management.port.';
      return;
    }
    const found = lateness(text);
    if (!found.count) {
      ['0.5', '0.9', '0.99'].forEach(q => { found[q] = undefined; });
    }
    $('lateness-p50').textContent = found['0.5'] === undefined ? '-' : duration(found['0.5']);
    $('lateness-p90').textContent = found['0.9'] === undefined ? '-' : duration(found['0.9']);
    $('lateness-p99').textContent = found['0.99'] === undefined ? '-' : duration(found['0.99']);
    $('lateness-count').textContent = number(found.count);
    $('lateness-note').textContent = found.approximate ? 'Estimated from the histogram buckets.'
      : 'Percentiles as this instance publishes them (recent deliveries).';
  }

  async function poll() {
    try {
      await Promise.all([refreshStats(), refreshDue()]);
      if (pollFailed) $('status').hidden = true;
      pollFailed = false;
    } catch (error) {
      pollFailed = true;
      fail('Cannot read the counts', error);
    }
    await refreshLateness();
  }

  // --- one message -----------------------------------------------------------------------------------
  function fact(list, name, value) {
    if (value === undefined || value === null) return;
    const dt = el('dt', name);
    const dd = el('dd', value);
    dd.id = 'fact-' + name;
    list.append(dt, dd);
  }

  async function findMessage(id, withBody) {
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

  function dueTimeBody(text) {
    const value = text.trim();
    if (/^\d+$/.test(value)) return { delayMs: Number(value) };
    if (/^P/i.test(value)) return { delayMs: value };
    return { deliverAt: value };
  }

  // --- dead letters ------------------------------------------------------------------------------------
  async function loadDeadLetters(more) {
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

  // --- wiring --------------------------------------------------------------------------------------------
  async function run(what, action) {
    try {
      await action();
    } catch (error) {
      fail(what, error);
    }
  }

  function showTokenState() {
    $('token-state').textContent = token() ? 'token set for this tab' : 'no token';
  }

  function start() {
    REASONS.forEach(reason => $('dead-reason').appendChild(el('option', reason)));
    showTokenState();

    $('token-form').addEventListener('submit', event => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, $('token').value.trim());
      $('token').value = '';
      showTokenState();
      $('status').hidden = true;
      poll();
      run('List dead letters', () => loadDeadLetters(false));
    });
    $('token-forget').addEventListener('click', () => {
      sessionStorage.removeItem(TOKEN_KEY);
      showTokenState();
    });
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
    $('dead-form').addEventListener('submit', event => {
      event.preventDefault();
      run('List dead letters', () => loadDeadLetters(false));
    });
    $('dead-reason').addEventListener('change', () => run('List dead letters', () => loadDeadLetters(false)));
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

    poll();
    run('List dead letters', () => loadDeadLetters(false));
    setInterval(() => { if (!document.hidden) poll(); }, POLL_MS);
  }

  document.addEventListener('DOMContentLoaded', start);
}());
