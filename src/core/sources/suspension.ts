// A source suspended by hand: Flux `spec.suspend: true` (`flux suspend`), Argo CD automated sync turned
// off (`spec.syncPolicy.automated` removed or `enabled: false`) or `argocd.argoproj.io/skip-reconcile`.
// That is an emergency switch, reported as a suspension with its resume step, never codified into Git.
import type { FieldChange, ResourceKey } from '../model/index.js';
import { ARGO_APPLICATION_GROUP } from './argocd.js';

const FLUX_GROUP = /\.toolkit\.fluxcd\.io$/;
const SKIP_RECONCILE = '/metadata/annotations/argocd.argoproj.io~1skip-reconcile';

/** Why a change on a source object is its suspension, or undefined when it is not one. */
export function suspensionReason(key: ResourceKey, change: FieldChange): string | undefined {
  if (FLUX_GROUP.test(key.group) && change.path === '/spec/suspend' && change.live === true) {
    return `suspends ${key.kind} ${key.namespace}/${key.name} (\`flux suspend\`): a suspension is reported `
      + 'until it is resumed (`flux resume`), never written to Git';
  }
  if (key.group !== ARGO_APPLICATION_GROUP || key.kind !== 'Application') return undefined;
  const automatedOff = (change.path === '/spec/syncPolicy/automated' && change.live === undefined)
    || (change.path === '/spec/syncPolicy/automated/enabled' && change.live === false);
  if (automatedOff || (change.path === SKIP_RECONCILE && change.live === 'true')) {
    return `turns off automated sync of Application ${key.namespace}/${key.name}: a suspension is reported `
      + 'until automated sync is on again, never written to Git';
  }
  return undefined;
}
