// codifyDrift: writes the intentional live changes of a diff back into the repository's files,
// byte-exact, then checks the result by rendering and diffing again.
import { customLookupsOf } from '../k8s/index.js';
import { formatProblem } from '../model/index.js';
import { selectIntents } from './select.js';
import { applyIntent, type ApplyContext } from './apply.js';
import { Workspace } from './workspace.js';
import { normalizeDir } from '../model/index.js';
import { isInside } from './new-resource.js';
import { kustomizationUsers } from './shared-bases.js';
import { compareAfterCodify } from './self-check.js';
import type { CodifyEngine, CodifyInput, CodifyResult } from './types.js';

export function codifyWith(engine: CodifyEngine, input: CodifyInput): CodifyResult {
  const root = normalizeDir(input.root);
  const namespaces = input.cluster?.namespaces;
  const selection = selectIntents(input.result.resources, input.config, namespaces, input.result.owned);
  const ctx: ApplyContext = {
    workspace: new Workspace(input.files),
    config: input.config,
    root,
    cluster: input.cluster,
    users: kustomizationUsers(input.files),
    homes: input.newResourceHomes ?? {},
    codified: [],
    reported: [...selection.reported],
    customDefaults: customLookupsOf(input.live).customDefaults,
  };
  for (const intent of selection.intents) applyIntent(ctx, intent);
  const edits = ctx.workspace.edits();
  // Files codify creates stay under the cluster path; existing files it edits are ones the render read.
  const roots = [root, ...(input.sourceRoots ?? []).map(normalizeDir)];
  const outside = [...edits.keys()].filter(
    (path) => !input.files.has(path) && !roots.some((dir) => isInside(path, dir)),
  );
  if (outside.length > 0) {
    return {
      edits: new Map(),
      codified: ctx.codified,
      reported: ctx.reported,
      check: {
        ok: false,
        reason: `codify would create ${outside.join(', ')} outside the cluster path ${root || '(repository root)'}; nothing is written`,
      },
    };
  }
  if (ctx.codified.length === 0) return { edits, codified: [], reported: ctx.reported, check: { ok: true } };
  // The check compares two fresh diffs made the same way, so options and filtering applied to
  // input.result (persistence gate, scope) cannot make it fail.
  const scope = { complete: true, errors: input.result.unlisted.map((resource) => ({ resource })) };
  const options = { config: input.config, namespaces, scope };
  const renderedBefore = engine.render(input.files, root, { defaultNamespace: input.defaultNamespace });
  const renderedAfter = engine.render(ctx.workspace.files(), root, { defaultNamespace: input.defaultNamespace });
  const knownErrors = new Set(renderedBefore.errors.map(formatProblem));
  const newErrors = renderedAfter.errors.map(formatProblem).filter((problem) => !knownErrors.has(problem));
  const before = engine.diff(renderedBefore.objects, input.live, options);
  const after = engine.diff(renderedAfter.objects, input.live, options);
  const check = compareAfterCodify(before, after, ctx.codified, newErrors);
  return { edits: check.ok ? edits : new Map(), codified: ctx.codified, reported: ctx.reported, check };
}
