// Where the agent's cluster credentials come from: an explicit kubeconfig file, `KUBECONFIG`,
// the in-cluster service account (inside a Pod), or ~/.kube/config — the order kubectl uses.
import { KubeConfig } from '@kubernetes/client-node';

export interface KubeconfigSource {
  /** `--kubeconfig <file>`. */
  file?: string;
  /** `--context <name>`; default the file's current-context. */
  context?: string;
  env: NodeJS.ProcessEnv;
}

export function loadKubeConfig(source: KubeconfigSource): KubeConfig {
  const config = new KubeConfig();
  const file = source.file ?? source.env.KUBECONFIG;
  if (file) {
    // KUBECONFIG may list several files; client-node merges them like kubectl.
    if (source.file) config.loadFromFile(source.file);
    else config.loadFromDefault();
  } else if (source.env.KUBERNETES_SERVICE_HOST) {
    config.loadFromCluster();
  } else {
    config.loadFromDefault();
  }
  if (source.context) {
    if (!config.getContextObject(source.context)) throw new Error(`the kubeconfig has no context "${source.context}"`);
    config.setCurrentContext(source.context);
  }
  if (!config.getCurrentCluster()) {
    throw new Error('no cluster to talk to: pass --kubeconfig, set KUBECONFIG, or run inside a Pod with a service account');
  }
  return config;
}
