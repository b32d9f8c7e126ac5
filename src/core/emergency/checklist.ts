// The checklist an emergency drift PR carries (merged, resumed, applied, in sync) as Markdown between
// two markers the App finds again, and the "verified" comment: the procedure's own words, written
// by the follow-up (follow.ts) and placed by the report's emergency section.
import type { Checklist } from './procedure.js';

const CHECKLIST_START = '<!-- driftback:emergency-checklist -->';
const CHECKLIST_END = '<!-- /driftback:emergency-checklist -->';

export function renderChecklist(checklist: Checklist): string {
  const box = (done: boolean, text: string) => `- [${done ? 'x' : ' '}] ${text}`;
  return [
    CHECKLIST_START,
    box(checklist.merged, 'merged: Git holds the fix'),
    box(checklist.resumed, 'resumed: the controller reconciles again'),
    box(checklist.applied, 'applied: the controller applied a revision that includes the merge commit'),
    box(checklist.inSync, 'in sync: no drift left on anything the source applies'),
    CHECKLIST_END,
  ].join('\n');
}

/** The body with its checklist replaced; undefined when the body has none. */
export function withChecklist(body: string, checklist: Checklist): string | undefined {
  const start = body.indexOf(CHECKLIST_START);
  const end = body.indexOf(CHECKLIST_END);
  if (start === -1 || end < start) return undefined;
  return body.slice(0, start) + renderChecklist(checklist) + body.slice(end + CHECKLIST_END.length);
}

export function verifiedComment(sha: string): string {
  return `verified: cluster and Git agree at \`${sha}\``;
}
