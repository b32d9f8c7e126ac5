// An object two Argo CD Applications claim (Argo CD's SharedResourceWarning): the guestbook Application
// of Argo CD's e2e tests and a monitoring Application whose directory holds its own copy of the
// guestbook Service (with a metrics port), both synced. The Service's hand change is reported naming
// both Applications and never codified in the drift pull request, which codifies the Deployment's;
// the plan comment on a pull request warns of the conflict with the same fields against each.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { renderCluster } from '../../src/core/pipeline/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { readFixtureTree } from '../support/fixtures.js';
import { argoApplication } from '../support/argo-application.js';
import {
  commentsOn,
  expectGolden,
  OWNER,
  proposePullRequest,
  REPO,
  runWatch,
  startHarness,
  uploadSeenTwice,
  type Harness,
} from './plan-harness.js';

const GUESTBOOK = readFixtureTree('manifests', 'argo-cd/test/e2e/testdata/guestbook');
const NOW = '2026-12-02T12:00:00Z';
const SYNCED = '2026-12-01T09:00:00Z';

const application = (name: string, path: string): string =>
  stringify(
    argoApplication(name, {
      repoURL: `https://github.com/${OWNER}/${REPO}.git`,
      path,
      destination: 'guestbook',
      spec: { syncPolicy: { automated: { prune: true } } },
    }),
  );

// The monitoring team's copy of the Service, with the port its ServiceMonitor scrapes.
const MONITORING_SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: guestbook-ui
spec:
  ports:
  - port: 80
    targetPort: 80
  - name: metrics
    port: 9090
    targetPort: 9090
  selector:
    app: guestbook-ui
`;

const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: argocd\n';

function repository(): Map<string, string> {
  const files = new Map([...GUESTBOOK].map(([path, text]): [string, string] => [`guestbook/${path}`, text]));
  files.set('monitoring/guestbook-ui-svc.yaml', MONITORING_SERVICE);
  files.set('clusters/prod/guestbook.yaml', application('guestbook', 'guestbook'));
  files.set('clusters/prod/monitoring.yaml', application('monitoring', 'monitoring'));
  files.set('.github/driftback.yml', CONFIG);
  return files;
}

const managed = (manager: string, operation: string, time: string, fieldsV1: Record<string, unknown> = {}) => ({
  manager,
  operation,
  time,
  fieldsType: 'FieldsV1',
  fieldsV1,
});

// The Service's ports as argocd-controller wrote them at monitoring's sync.
const PORTS = {
  'f:spec': {
    'f:ports': {
      'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:targetPort': {} },
      'k:{"port":9090,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} },
    },
  },
};

/**
 * What Argo CD synced (monitoring last: the Service is its rendering, with its tracking id), then a
 * `kubectl scale` of the Deployment and a `kubectl annotate` of the Service.
 */
function liveObjects(): KubeObject[] {
  const rendered = renderCluster(
    repository(),
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'argocd' },
    { live: { items: [], repository: `${OWNER}/${REPO}` } },
  );
  expect(rendered.errors).toEqual([]);
  const monitoring = rendered.notes.find((note) => note.code === 'shared-resource')?.shared?.desired.object;
  expect(monitoring?.kind).toBe('Service');
  return rendered.objects.map(({ object }) => {
    const applied = structuredClone(object.kind === 'Service' ? monitoring! : object);
    const live = structuredClone(applied) as KubeObject & { spec?: any };
    // Argo CD applies client-side: kubectl's record of what it applied, and argocd-controller as manager.
    const lastApplied = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(applied) };
    live.metadata.annotations = { ...live.metadata.annotations, ...lastApplied };
    live.metadata.managedFields = [
      managed('argocd-controller', 'Update', SYNCED, object.kind === 'Service' ? PORTS : {}),
    ];
    if (live.kind === 'Deployment') {
      live.spec.replicas = 2;
      live.metadata.managedFields.push(
        managed('kubectl-scale', 'Update', '2026-12-02T10:05:00Z', { 'f:spec': { 'f:replicas': {} } }),
      );
    }
    if (live.kind === 'Service') {
      live.metadata.annotations = { ...live.metadata.annotations, 'prometheus.io/scrape': 'true' };
      const annotated = { 'f:metadata': { 'f:annotations': { 'f:prometheus.io/scrape': {} } } };
      live.metadata.managedFields.push(managed('kubectl-annotate', 'Update', '2026-12-02T10:20:00Z', annotated));
    }
    return live;
  });
}

let h: Harness;
let pullNumber = 0;

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(repository()), NOW);
  const items = liveObjects();
  await uploadSeenTwice(h, 'prod', items);
  const image = GUESTBOOK.get('guestbook-ui-deployment.yaml')!.replace('container:0.2', 'container:0.3');
  const pull = await proposePullRequest(h, 'guestbook-0.3', { 'guestbook/guestbook-ui-deployment.yaml': image });
  pullNumber = pull.number;
  await runWatch(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const AGAINST_GUESTBOOK = 'against argocd/guestbook: `spec.ports[9090/TCP]`, ';
const SCRAPE = 'metadata.annotations["prometheus.io/scrape"]';

it('the drift pull request codifies the Deployment and reports the shared Service naming both Applications', () => {
  const repo = h.standIn.state.repo(OWNER, REPO);
  const drift = [...repo.issues.values()].find((issue) => issue.pull?.head === 'driftback/prod');
  const body = drift!.body!;
  expect(body).toContain(
    '| `spec.replicas`<br>`0` → `2` | kubectl-scale<br>10:05 UTC | `guestbook-ui-deployment.yaml:8` |',
  );
  const service = body.split('\n').filter((line) => line.startsWith('| `Service/guestbook/guestbook-ui`'));
  expect(service).toHaveLength(2);
  for (const row of service) {
    expect(row).toContain('claimed by Argo CD Applications argocd/guestbook and argocd/monitoring');
    expect(row).toContain(AGAINST_GUESTBOOK);
    expect(row).toContain('; against argocd/monitoring: <code>metadata.<wbr>annotations');
  }
  expectGolden('shared-resource.drift-pull-request.md', body);
});

it('the plan comment warns of the conflict, with the same fields against each Application', () => {
  const plan = commentsOn(h, pullNumber).find((body) => body.includes('driftback plan'));
  expect(plan).toContain(
    `Compared with live ${AGAINST_GUESTBOOK}\`${SCRAPE}\`; against argocd/monitoring: \`${SCRAPE}\`.`,
  );
  expectGolden('shared-resource.comment.md', plan!);
});
