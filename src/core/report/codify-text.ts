// What `driftback codify` prints: what was codified (each change, the file and line it went to) and
// what was only reported, with why; `--dry-run` adds the unified diff of every file it would write.
import { createTwoFilesPatch } from 'diff';
import type { CodifyResult } from '../codify/index.js';
import { displayKey } from '../model/index.js';
import { changeField } from './change-rows.js';

/** The summary lines: `codified 2 changes:`, one line per change (its field as people read it), then what was reported instead. */
export function renderCodifyText(result: Pick<CodifyResult, 'codified' | 'reported'>): string {
  const count = result.codified.length;
  const lines = [`codified ${count} change${count === 1 ? '' : 's'}${count ? ':' : ''}`];
  for (const entry of result.codified) {
    const what = entry.change ? ` ${changeField(entry.key, entry.change)}` : '';
    lines.push(
      `  ${entry.kind.padEnd(12)} ${displayKey(entry.key)}${what} → ${entry.file}${entry.line ? `:${entry.line}` : ''}`,
    );
    if (entry.note) lines.push(`  ${''.padEnd(12)} ${entry.note}`);
    const chart = entry.chartValue;
    if (chart) {
      const object = chart.object ? ` of ${chart.object}` : '';
      lines.push(
        `  ${''.padEnd(12)} ${chart.path.join('.')} in ${chart.where}${object} (chart value of ${chart.source})`,
      );
    }
  }
  if (result.reported.length > 0) {
    lines.push(`reported instead ${result.reported.length}:`);
    for (const entry of result.reported)
      lines.push(
        `  ${displayKey(entry.key)}${entry.change ? ` ${changeField(entry.key, entry.change)}` : ''}: ${entry.reason}`,
      );
  }
  return lines.join('\n') + '\n';
}

/** The edits as unified diffs, files in path order; a new file is a diff from /dev/null. */
export function renderCodifyPatch(edits: ReadonlyMap<string, string>, before: ReadonlyMap<string, string>): string {
  return [...edits]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => {
      const old = before.get(path);
      return createTwoFilesPatch(old === undefined ? '/dev/null' : `a/${path}`, `b/${path}`, old ?? '', text);
    })
    .join('');
}
