// The `driftback / security (<cluster>)` check run on the default branch's HEAD: it fails while a
// cluster holds security-relevant drift waiting for a person's decision, lists it, and puts a
// failure-level annotation on the line of Git each risky change departs from. Its text depends on the
// drift only (times as recorded, not relative to a clock), so an unchanged cluster rewrites nothing.
import { riskyDrift } from '../risk/index.js';
import { counted, displayKey, keyId, showTime, type DiffResult } from '../model/index.js';
import { sourceOf } from '../plan/source-line.js';
import { fitBudget, GITHUB_BODY_LIMIT } from './budget.js';
import type { CheckAnnotation, CheckRunOutput } from './check-run.js';
import { escapeText, inlineCode } from './escape.js';
import { riskyRows } from './risk-rows.js';
import { RISKY_ADVICE } from './templates/partials.js';

export function securityCheckName(cluster: string): string {
  return `driftback / security (${cluster})`;
}

/** The rows of the summary, one per risky item. */
function summaryLines(result: DiffResult): string[] {
  return riskyRows(riskyDrift(result), undefined).map((row) => {
    const where = row.field ? `${inlineCode(row.resource)} ${inlineCode(row.field)}` : inlineCode(row.resource);
    const risks = row.risks.map((risk) => `**${escapeText(risk.code)}**: ${escapeText(risk.why)}`).join('; ');
    return `- ${where} by ${escapeText(row.who)}, ${escapeText(row.when)}: ${risks}`;
  });
}

/** A failure annotation on the Git line of every risky change to an object Git declares. */
function annotations(result: DiffResult): CheckAnnotation[] {
  const resources = new Map(result.resources.map((resource) => [keyId(resource.key), resource]));
  return riskyDrift(result).flatMap((item) => {
    const desired = resources.get(keyId(item.key))?.desired;
    const place = item.change ? sourceOf(desired, item.change.path) : undefined;
    if (!place?.line) return [];
    const codes = [...new Set(item.risk.filter((risk) => !risk.allowed).map((risk) => risk.code))].join(', ');
    const who = `${item.manager ?? 'an unrecorded manager'}${item.time ? ` at ${showTime(item.time)}` : ''}`;
    const why = item.risk.filter((risk) => !risk.allowed).map((risk) => `${risk.code}: ${risk.why}`);
    return [
      {
        path: place.file,
        start_line: place.line,
        end_line: place.line,
        annotation_level: 'failure' as const,
        title: `${codes}: ${displayKey(item.key)}`.slice(0, 255),
        message: [`Changed in the cluster by ${who}.`, ...why].join('\n').slice(0, 64_000),
      },
    ];
  });
}

/** The check run of one cluster: failure with the risky drift, success without. */
export function renderSecurityCheck(cluster: string, result: DiffResult): CheckRunOutput {
  const lines = summaryLines(result);
  if (lines.length === 0) {
    const summary = `No security-relevant drift in ${inlineCode(cluster)} waits for a decision.`;
    return { title: 'No security-relevant drift', summary, conclusion: 'success', annotations: [] };
  }
  const count = `${lines.length} security-relevant change${lines.length === 1 ? '' : 's'}`;
  const needs = lines.length === 1 ? 'needs' : 'need';
  const intro = `${count} in ${inlineCode(cluster)} ${needs} a person's decision:`;
  const summary = fitBudget(
    [
      () => [intro, '', ...lines, '', RISKY_ADVICE].join('\n'),
      () =>
        [intro, '', `${counted(lines.length, 'item')}: see the annotations and the dashboard.`, '', RISKY_ADVICE].join(
          '\n',
        ),
    ],
    GITHUB_BODY_LIMIT - 1,
  ).body;
  return {
    title: `${count} ${needs} a person's decision`.slice(0, 1000),
    summary,
    conclusion: 'failure',
    annotations: annotations(result),
  };
}
