// What a run tells the person watching: a progress line per type (on a terminal) and, at the
// end, items and bytes per type, so a big type is easy to spot and scope out.
import type { SnapshotSummary } from './take-snapshot.js';
import type { TypeFigures } from './types.js';

/** The version recorded in each snapshot's `agent.version`; kept equal to package.json's. */
export const AGENT_VERSION = '0.1.0';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function progressLine(figures: TypeFigures): string {
  const owned = figures.owned > 0 ? `, ${figures.owned} owned left out` : '';
  return `listed ${figures.resource}: ${figures.items} items, ${formatBytes(figures.bytes)}${owned}`;
}

/** Types with items, largest first, then the totals and every type that could not be listed. */
export function summaryLines(summary: SnapshotSummary): string[] {
  const rows = summary.types
    .filter((t) => t.items > 0)
    .sort((a, b) => b.bytes - a.bytes || a.resource.localeCompare(b.resource));
  const width = Math.max(8, ...rows.map((r) => r.resource.length));
  const lines = rows.map(
    (r) => `  ${r.resource.padEnd(width)} ${String(r.items).padStart(7)} items ${formatBytes(r.bytes).padStart(10)}`,
  );
  lines.push(
    `  ${'total'.padEnd(width)} ${String(summary.items).padStart(7)} items ${formatBytes(summary.bytes).padStart(10)}`,
  );
  for (const error of summary.errors) lines.push(`  not listed: ${error.resource}: ${error.reason}: ${error.message}`);
  if (!summary.complete)
    lines.push('  the snapshot is partial (scope.complete: false): nothing is inferred for the types not listed');
  return lines;
}
