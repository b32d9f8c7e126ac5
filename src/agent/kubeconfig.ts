// Where the agent's cluster credentials come from: an explicit kubeconfig file, `KUBECONFIG`,
// the in-cluster service account (inside a Pod), or ~/.kube/config — the order kubectl uses.
import { delimiter } from 'node:path';
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
  const files = source.file ? [source.file] : (source.env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  if (files.length > 0) {
    // KUBECONFIG may list several files: the first one's current-context wins, as with kubectl.
    config.loadFromFile(files[0]);
    for (const file of files.slice(1)) {
      const more = new KubeConfig();
      more.loadFromFile(file);
      config.mergeConfig(more, true);
    }
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
    throw new Error(
      'no cluster to talk to: pass --kubeconfig, set KUBECONFIG, or run inside a Pod with a service account',
    );
  }
  return config;
}
