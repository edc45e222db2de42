// The chart of what falls due in the next hour, a bar a minute, from GET /stats/due-histogram.
import { api } from './api.js';
import { $, svg } from './dom.js';
import { instant, number } from './format.js';

export async function refreshDue() {
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
