// The counts panel: each count from GET /stats, with its trend over the last polls and a sparkline.
import { api } from './api.js';
import { $, svg } from './dom.js';
import { duration, instant, number, relative } from './format.js';

export const POLL_MS = 5000;
const HISTORY = 60; // polls kept for the trend: 5 minutes
const COUNTS = ['pending', 'parked', 'inFlight', 'delivered', 'cancelled', 'dead'];

const history = {};
COUNTS.forEach(name => { history[name] = []; });

export async function refreshStats() {
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
