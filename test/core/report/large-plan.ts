// A 500-object pull request through the real planner: 430 creates (a numbered run of 400 ConfigMaps and
// 30 Services with unnumbered names), 50 updates (25 of them undo a kubectl-scale), 20 prunes (5
// StatefulSets whose claims hold data). The input of the condensed plan comment's tests.
import { planChanges } from '../../../src/core/plan/index.js';
import { defaultConfig } from '../../../src/core/config/index.js';
import type { KubeObject, Plan } from '../../../src/core/model/index.js';
import { desiredFromFiles, liveOf, scaledByHand } from '../plan/build.js';

const pad = (i: number, width = 3): string => String(i).padStart(width, '0');

function docs(count: number, doc: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => doc(i + 1)).join('---\n');
}

const configMap = (name: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\ndata:\n  key: value-${name}\n`;

const deployment = (name: string, image: string): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: ${name}\n  template:\n    metadata:\n      labels:\n        app: ${name}\n    spec:\n      containers:\n        - name: app\n          image: ${image}\n`;

const WORDS = ['cart', 'checkout', 'payment', 'search', 'ads', 'email', 'currency', 'shipping', 'frontend', 'catalog'];
const SERVICE_NAMES = WORDS.flatMap((word) => [`${word}`, `${word}-internal`, `${word}-metrics`]);

const service = (name: string): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  selector:\n    app: ${name}\n  ports:\n    - port: 80\n`;

const statefulSet = (i: number): string =>
  `apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db-${i}\n  namespace: data\nspec:\n  serviceName: db-${i}\n  selector:\n    matchLabels:\n      app: db-${i}\n  template:\n    metadata:\n      labels:\n        app: db-${i}\n    spec:\n      containers:\n        - name: db\n          image: postgres:16\n  volumeClaimTemplates:\n    - metadata:\n        name: data\n`;

const cronJob = (i: number, image: string): string =>
  `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: report-${pad(i, 2)}\n  namespace: jobs\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: report\n              image: ${image}\n`;

function sharedFiles(image: string): Map<string, string> {
  return new Map([
    ['apps/shop/deployments.yaml', docs(40, (i) => deployment(`web-${pad(i, 2)}`, `ghcr.io/acme/web:${image}`))],
    ['apps/jobs/cronjobs.yaml', docs(10, (i) => cronJob(i, `ghcr.io/acme/report:${image}`))],
  ]);
}

/** What the pull request makes of the repository: the base, its head and what is live. */
export function largePlan(): Plan {
  const base = desiredFromFiles(
    new Map([
      ...sharedFiles('1.0.0'),
      ['apps/shop/legacy.yaml', docs(15, (i) => configMap(`legacy-${i}`))],
      ['apps/data/databases.yaml', docs(5, statefulSet)],
    ]),
  );
  const head = desiredFromFiles(
    new Map([
      ...sharedFiles('1.1.0'),
      ['apps/shop/configmaps.yaml', docs(400, (i) => configMap(`cfg-${pad(i)}`))],
      ['apps/shop/services.yaml', SERVICE_NAMES.map(service).join('---\n')],
    ]),
  );
  const live = base.map((desired) => liveOf(desired));
  // Someone scaled the first 25 web Deployments by hand: the apply sets them back to 2 replicas.
  for (const object of live.filter((o: KubeObject) => o.kind === 'Deployment').slice(0, 25)) scaledByHand(object, 5);
  return planChanges({
    head,
    base,
    live,
    config: defaultConfig(),
    cluster: { name: 'prod-eu', path: 'apps', defaultNamespace: 'default', prune: true, staleAfter: '30m' },
    snapshot: { capturedAt: '2026-12-02T11:50:00Z', complete: true, errors: [] },
    now: '2026-12-02T12:00:00Z',
  });
}
