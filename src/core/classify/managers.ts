// Who a field manager is: a human at a terminal or a UI, a controller in the cluster, the GitOps
// applier, or unknown. The lists below are the manager names the tools themselves record in
// metadata.managedFields (client-go uses the program name, kubectl `kubectl-<verb>`).
import type { Cause } from '../model/index.js';
import type { Config } from '../config/index.js';
import { compileConfigGlobs } from '../patterns/index.js';

/**
 * Managers that apply Git to the cluster. `argocd` and `argocd-application-controller` are what Argo CD
 * records when it syncs with client-side apply (Update operations) instead of server-side apply.
 */
export const BUILTIN_APPLIERS = [
  'kustomize-controller',
  'argocd-controller',
  'helm-controller',
  'argocd',
  'argocd-application-controller',
] as const;

/** `kubectl apply` from CI: the applier when no GitOps applier manages the object. */
export const CLI_APPLIERS = ['kubectl-client-side-apply'] as const;

/** People: kubectl verbs that edit by hand, and the dashboards and terminal UIs. */
export const HUMAN_MANAGERS = [
  'kubectl-edit',
  'kubectl-patch',
  'kubectl-scale',
  'kubectl-set',
  'kubectl-annotate',
  'kubectl-label',
  'kubectl-create',
  'kubectl-replace',
  'kubectl-rollout',
  'kubectl-expose',
  'kubectl-run',
  'kubectl-autoscale',
  'kubectl-taint',
  'kubectl-apply-edit-last-applied',
  'Mozilla/**',
  'k9s',
  'k9s*',
  'Lens',
  'lens',
  'OpenLens',
  'openlens',
  'headlamp',
  'headlamp*',
  'kubernetes-dashboard',
  'dashboard',
  'rancher',
  'rancher-ui',
  'octant',
  'kubenav',
  'kube-explorer',
] as const;

/** Controllers: autoscalers, the control plane, webhooks and sidecar injectors, operators. */
export const CONTROLLER_MANAGERS = [
  'horizontal-pod-autoscaler',
  'vertical-pod-autoscaler',
  'vpa-updater',
  'vpa-recommender',
  'vpa-admission-controller',
  'kube-controller-manager',
  'cloud-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
  'kube-apiserver',
  'cluster-autoscaler',
  'karpenter',
  'keda-operator',
  'keda',
  'cert-manager*',
  'cainjector',
  '*-webhook',
  '*webhook*',
  '*-injector',
  'sidecar-injector',
  'istio*',
  'pilot-discovery',
  'linkerd*',
  '*-operator',
  'operator',
  'manager',
  '*-controller',
  '*-controller-manager',
  'argo-rollouts',
  'flagger',
  'external-secrets',
  'kyverno*',
  'gatekeeper*',
  'calico*',
  'cilium*',
  'kube-state-metrics',
] as const;

// Compiled once per list: the built-in lists are constants, a config's lists live as long as it does.
const matcherCache = new WeakMap<readonly string[], (name: string) => boolean>();
function matcher(globs: readonly string[]): (name: string) => boolean {
  let match = matcherCache.get(globs);
  if (!match) {
    const { matches } = compileConfigGlobs(globs);
    match = (name) => matches.test(name);
    matcherCache.set(globs, match);
  }
  return match;
}

const isHuman = matcher(HUMAN_MANAGERS);
const isController = matcher(CONTROLLER_MANAGERS);

/**
 * The cause of a field manager. Order matters: configured humans first (a team may run a UI whose
 * name looks like a controller), then appliers, kubectl, the built-in lists. `operation` tells
 * plain `kubectl` apart: `Apply` is server-side apply from CI, `Update` is a hand edit.
 */
export function classifyManager(manager: string, config: Config, operation?: string): Cause {
  // A cluster has a few dozen manager names and a snapshot thousands of entries: classify each once.
  let memo = causeMemo.get(config.drift);
  if (!memo) {
    memo = new Map();
    causeMemo.set(config.drift, memo);
  }
  const memoKey = manager === 'kubectl' || manager === 'flux' ? `${manager}\u0000${operation ?? ''}` : manager;
  let cause = memo.get(memoKey);
  if (cause === undefined) {
    cause = classifyUncached(manager, config, operation);
    memo.set(memoKey, cause);
  }
  return cause;
}

const causeMemo = new WeakMap<object, Map<string, Cause>>();

function classifyUncached(manager: string, config: Config, operation?: string): Cause {
  if (matcher(config.drift.humanManagers)(manager)) return 'human';
  if ((BUILTIN_APPLIERS as readonly string[]).includes(manager) || matcher(config.drift.appliers)(manager))
    return 'applier';
  if ((CLI_APPLIERS as readonly string[]).includes(manager)) return 'applier';
  if (manager === 'kubectl') return operation === 'Apply' ? 'applier' : 'human';
  // `flux bootstrap` / `flux install` server-side apply the components as `flux` (fluxcd/flux2
  // internal/utils/apply.go); `flux suspend|resume|reconcile` are a person's merge patches (Update).
  if (manager === 'flux') return operation === 'Apply' ? 'applier' : 'human';
  if (isHuman(manager)) return 'human';
  if (manager.startsWith('kubectl-')) return 'human';
  if (isController(manager)) return 'controller';
  return 'unknown';
}

/** `kubectl apply`: client-side (`kubectl-client-side-apply`) or server-side (`kubectl`, operation Apply). */
export function isKubectlApply(manager: string): boolean {
  return (CLI_APPLIERS as readonly string[]).includes(manager) || manager === 'kubectl';
}

/** Appliers that are GitOps controllers (not `kubectl` from a terminal or CI). */
export function isGitOpsApplier(manager: string, config: Config): boolean {
  return (BUILTIN_APPLIERS as readonly string[]).includes(manager) || matcher(config.drift.appliers)(manager);
}
