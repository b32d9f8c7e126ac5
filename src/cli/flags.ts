// Flags shared by the commands that compare manifests with live state (diff, plan, codify): their
// parseArgs definitions and the checks diff and plan make alike, so the three spell them the same.
import { CliError } from './io.js';

/** Flags of every command that reads manifests and live state. `--live` may repeat: earlier snapshots first. */
export const INPUT_FLAGS = {
  live: { type: 'string', multiple: true },
  config: { type: 'string' },
  cluster: { type: 'string' },
  namespace: { type: 'string' },
  charts: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

/** INPUT_FLAGS plus `--format`, for the commands that print a report. */
export const REPORT_FLAGS = { ...INPUT_FLAGS, format: { type: 'string', default: 'text' } } as const;

/** The checks of REPORT_FLAGS: a known `--format`, and `--live` given. Returns the format. */
export function checkReportFlags(values: { format?: string; live?: string[] }): Format {
  const format = values.format ?? 'text';
  if (!FORMATS.includes(format as Format)) throw new CliError(`--format ${format}: expected text, json or markdown`);
  if (!values.live?.length) {
    throw new CliError('--live is required: a snapshot, kubectl get -o json output, or a directory of objects');
  }
  return format as Format;
}
