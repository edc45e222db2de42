// Numbers, instants and durations as the console shows them.

export const number = value => value === null || value === undefined ? '-' : Number(value).toLocaleString('en-US');

export const instant = ms => new Date(ms).toISOString().replace('.000Z', 'Z');

export function duration(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '-';
  const abs = Math.abs(ms);
  if (abs < 1000) return Math.round(ms) + ' ms';
  if (abs < 60000) return (ms / 1000).toFixed(abs < 10000 ? 2 : 1) + ' s';
  const s = Math.round(abs / 1000);
  const text = s < 3600 ? Math.floor(s / 60) + 'm ' + (s % 60) + 's' : Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
  return (ms < 0 ? '-' : '') + text;
}

export const relative = ms => ms >= 0 ? 'in ' + duration(ms) : duration(-ms) + ' ago';
