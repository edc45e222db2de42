// The lateness panel, from this instance's Prometheus metrics (the page has no API call for it).
import { $ } from './dom.js';
import { duration, number } from './format.js';

const METRICS = '../observe/metrics';
const QUANTILES = ['0.5', '0.9', '0.99'];

// Reads bridge_delivery_lateness_*: a summary's published quantiles, or a histogram's buckets (summed over
// labels such as the broker kind), in milliseconds or seconds as the name says.
export function lateness(text) {
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
    QUANTILES.forEach(q => { result[q] = quantiles[q]; });
    return result;
  }
  const bounds = Object.keys(buckets).map(Number).sort((a, b) => a - b);
  const total = bounds.length ? buckets[bounds[bounds.length - 1]] : 0;
  result.approximate = true;
  QUANTILES.forEach(q => {
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

export async function refreshLateness() {
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
    QUANTILES.forEach(q => { found[q] = undefined; });
  }
  $('lateness-p50').textContent = found['0.5'] === undefined ? '-' : duration(found['0.5']);
  $('lateness-p90').textContent = found['0.9'] === undefined ? '-' : duration(found['0.9']);
  $('lateness-p99').textContent = found['0.99'] === undefined ? '-' : duration(found['0.99']);
  $('lateness-count').textContent = number(found.count);
  $('lateness-note').textContent = found.approximate ? 'Estimated from the histogram buckets.'
    : 'Percentiles as this instance publishes them (recent deliveries).';
}
