// Risky drift as rows people read: the object and field, who and when, each risk's code and why. One
// builder for the drift pull request, `driftback diff`, the dashboard and the security check run.
import type { RiskyItem } from '../risk/index.js';
import { displayKey, type Risk } from '../model/index.js';
import { changeField, whoWhen } from './change-rows.js';
import type { RiskyRowModel } from './models/index.js';

function undecided(risk: readonly Risk[]): Risk[] {
  return risk.filter((entry) => entry.allowed === undefined);
}

/** Rows of the items' undecided risks; `reference` is the snapshot's time (times on its day show without the date). */
export function riskyRows(items: readonly RiskyItem[], reference: string | undefined): RiskyRowModel[] {
  return items.flatMap((item) => {
    const risks = undecided(item.risk).map(({ code, why }) => ({ code, why }));
    if (risks.length === 0) return [];
    return [
      {
        resource: displayKey(item.key),
        field: item.change ? changeField(item.key, item.change) : '',
        pointer: item.change?.path ?? '',
        ...whoWhen(item.manager, item.time, reference),
        codes: [...new Set(risks.map((risk) => risk.code))].join(', '),
        risks,
      },
    ];
  });
}

/** What an allowed risk says next to a codified change: `privilege allowed (drift.allowRisky: node agent)`. */
export function allowedNote(risk: readonly Risk[] | undefined): string | undefined {
  const allowed = (risk ?? []).filter((entry) => entry.allowed !== undefined);
  if (allowed.length === 0) return undefined;
  return allowed.map((entry) => `${entry.code} allowed (${entry.allowed})`).join('; ');
}
