// A unified YAML diff of one planned change: what the object looks like now (the fields head touches)
// and after the apply. Secret values are masked: a plan comment is readable by everyone on the PR.
import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import { fromPointer, isPlainObject, ownValue, setOwn, type KubeObject, type PlanEntry } from '../model/index.js';
import { maskSecretValues, withoutServerState } from '../k8s/index.js';

function clean(object: KubeObject | undefined): Record<string, unknown> | undefined {
  if (!object) return undefined;
  return maskSecretValues(structuredClone(withoutServerState(object)) as Record<string, unknown>);
}

function setAt(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = fromPointer(pointer);
  let node: unknown = target;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(node) && !Array.isArray(node)) return;
    const container = node as Record<string, unknown>;
    if (ownValue(container, parts[i]) === undefined) setOwn(container, parts[i], /^\d+$/.test(parts[i + 1]) ? [] : {});
    node = container[parts[i]];
  }
  if (!isPlainObject(node) && !Array.isArray(node)) return;
  const last = parts[parts.length - 1];
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as Record<string, unknown>)[last];
  } else setOwn(node, last, value);
}

function toYaml(value: unknown): string {
  return value === undefined ? '' : stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The unified diff text for an entry (no file headers), or '' when there is nothing to show. */
export function entryDiff(entry: PlanEntry, name: string): string {
  let before: unknown;
  let after: unknown;
  if (entry.action === 'create') after = clean(entry.desired?.object);
  else if (entry.action === 'prune') before = clean(entry.live);
  else {
    // Before = head with each changed field set back to its live value: the diff shows only what moves.
    after = clean(entry.desired?.object);
    const rewound = structuredClone(after) as Record<string, unknown>;
    const removals = entry.changes.filter((c) => c.op === 'remove');
    for (const change of entry.changes) if (change.op !== 'remove') setAt(rewound, change.path, change.live);
    for (const change of removals) setAt(rewound, change.path, change.live);
    before = maskSecretValues(rewound);
  }
  const patch = createTwoFilesPatch(`live/${name}`, `head/${name}`, toYaml(before), toYaml(after), '', '', {
    context: 3,
  });
  // Drop the "Index:" / "===" preamble: the summary line names the resource already.
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !line.startsWith('===='))
    .map((line) => (line.startsWith('--- ') || line.startsWith('+++ ') ? line.trimEnd() : line))
    .join('\n')
    .trim();
}
