// Who a field manager is: the applier that applies Git, a human at a terminal or dashboard, or
// another controller. The plan's warnings hang on this: a human's value is a hotfix to keep,
// a controller's is a fight over one field.
import picomatch from 'picomatch';
import type { Cause } from '../model/index.js';
import type { Config } from '../config/index.js';

/** Managers that apply Git to the cluster, before the config adds its own. */
export const BUILT_IN_APPLIERS = ['kustomize-controller', 'argocd-controller', 'helm-controller'];

/** Managers people drive: kubectl's imperative verbs and web consoles. */
export const BUILT_IN_HUMAN_MANAGERS = ['kubectl-*', 'kubectl', 'k9s', 'Mozilla', 'dashboard', 'kubernetes-dashboard', 'lens', 'rancher'];

function matcher(globs: string[]): (name: string) => boolean {
  const test = picomatch(globs.length ? globs : ['\u0000'], { nocase: true });
  return (name) => test(name);
}

export interface ManagerClassifier {
  causeOf(manager: string | undefined): Cause;
}

export function classifyManagers(config: Config): ManagerClassifier {
  const isApplier = matcher([...BUILT_IN_APPLIERS, ...config.drift.appliers]);
  const isHuman = matcher([...BUILT_IN_HUMAN_MANAGERS, ...config.drift.humanManagers]);
  return {
    causeOf(manager) {
      if (!manager) return 'unknown';
      // An applier listed by the config wins over the kubectl glob: CI may apply with plain kubectl.
      if (isApplier(manager)) return 'applier';
      if (isHuman(manager)) return 'human';
      return 'controller';
    },
  };
}
