// Durations for people: `45s`, `12m`, `3h 5m`, `2d 4h`.
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${s % 3600 >= 60 ? ` ${Math.floor((s % 3600) / 60)}m` : ''}`;
  return `${Math.floor(s / 86400)}d${s % 86400 >= 3600 ? ` ${Math.floor((s % 86400) / 3600)}h` : ''}`;
}

/** Seconds from `from` to `to` (ISO timestamps); undefined when either does not parse. */
export function secondsBetween(from: string, to: string): number | undefined {
  const a = Date.parse(from);
  const b = Date.parse(to);
  return Number.isFinite(a) && Number.isFinite(b) ? (b - a) / 1000 : undefined;
}
