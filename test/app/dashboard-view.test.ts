// The dashboard section of a cluster from its snapshot and the state the reconcile job records:
// degraded resources, suspended reconcilers, drift by cause, conflicts, ignored counts, open drift
// PRs and manifest problems, rendered to the golden issue body.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderDashboard } from '../../src/core/report/index.js';
import { hpaReplicasMessage } from '../../src/core/plan/index.js';
import { dashboardCluster } from '../../src/core/decide/index.js';
import type { ClusterState } from '../../src/app/reconcile/state.js';
import { expectGolden } from './plan-harness.js';

const config = parseConfig(
  'clusters:\n  - name: prod\n    path: clusters/prod\n    namespaces: [shop]\n    staleAfter: 1h\n',
);
if (!config.ok) throw new Error('config fixture is invalid');
const prod = config.config.clusters![0];
const NOW = '2026-12-02T12:00:00Z';

const items: KubeObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'shop', generation: 2 },
    spec: { replicas: 2 },
    status: {
      observedGeneration: 2,
      conditions: [
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out progressing' },
      ],
    },
  },
  {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'report', namespace: 'shop' },
    spec: { suspend: true, schedule: '0 * * * *' },
  },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other-team', namespace: 'billing' }, data: {} },
  {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'shop', namespace: 'shop' },
    spec: { source: { path: 'clusters/prod' } },
    status: { health: { status: 'Healthy' }, sync: { status: 'Synced', revision: 'abc' } },
  },
  // OutOfSync because of the hand change the dashboard reports; its last sync succeeded: not failing.
  {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'cart', namespace: 'shop' },
    spec: { source: { path: 'clusters/prod/cart' }, syncPolicy: { automated: {} } },
    status: {
      health: { status: 'Healthy' },
      sync: { status: 'OutOfSync', revision: 'abc' },
      operationState: { phase: 'Succeeded', message: 'successfully synced (all tasks run)' },
    },
  },
];

const state: ClusterState = {
  lastReconcileAt: '2026-12-02T11:58:00Z',
  drift: {
    byCause: { human: 2, controller: 1 },
    pending: 0,
    // A raw client swapped web's image: what the reconcile records of risky drift.
    risky: [
      {
        resource: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
        field: '/spec/template/spec/containers/0/image',
        segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'web' } }, 'image'],
        manager: 'curl',
        time: '2026-12-02T11:40:00Z',
        risk: [
          {
            code: 'image-registry',
            why: 'containers[web].image comes from registry.evil.example, a registry the repository’s manifests never use',
          },
          {
            code: 'unknown-manager',
            why: 'changed by curl, a field manager that is neither a person’s tool, a known controller, nor configured',
          },
        ],
      },
    ],
    riskByCode: { 'image-registry': 1, 'unknown-manager': 1 },
  },
  conflicts: [
    {
      resource: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
      path: '/spec/replicas',
      manager: 'horizontal-pod-autoscaler',
    },
  ],
  ignored: [{ reason: 'replicas belong to the HPA', count: 4 }],
  openPullRequests: [{ number: 12 }],
  problems: [
    {
      file: 'clusters/prod/kustomization.yaml',
      line: 7,
      field: 'helmCharts',
      message: 'helmCharts are not rendered: render the chart in CI',
    },
  ],
};

/** Decisions made by comment: cart's replicas decided twice (a new live value, a new decision), web's image allowed. */
const decisions = [
  {
    action: 'ignore' as const,
    object: 'Deployment/shop/cart',
    field: 'spec.replicas',
    reason: 'scaled for the sale',
    by: 'alice',
    decidedAt: '2026-12-02T09:00:00Z',
    pullRequest: 12,
  },
  {
    action: 'allow' as const,
    object: 'Deployment/shop/web',
    field: 'spec.template.spec.containers[web].image',
    reason: 'vendor mirror during the outage',
    by: 'maya',
    decidedAt: '2026-12-02T10:00:00Z',
    pullRequest: 12,
  },
  {
    action: 'ignore' as const,
    object: 'Deployment/shop/cart',
    field: 'spec.replicas',
    reason: 'still the sale <b>@platform</b>',
    by: 'alice',
    decidedAt: '2026-12-02T11:00:00Z',
    pullRequest: 14,
  },
];

describe('dashboardCluster', () => {
  const { view, figures } = dashboardCluster(
    prod,
    { capturedAt: '2026-12-02T11:50:00Z', items },
    state,
    NOW,
    decisions,
  );

  it('counts what is in scope, degraded and suspended', () => {
    expect(figures).toEqual({
      resources: 4,
      degraded: 1,
      suspended: 2,
      conflicts: 1,
      driftByCause: { human: 2, controller: 1 },
      riskByCode: { 'image-registry': 1, 'unknown-manager': 1 },
    });
    // The risky drift is named by its keyed field, with who and when.
    expect(view.risky).toEqual([
      expect.objectContaining({
        path: '/spec/template/spec/containers/0/image',
        manager: 'curl',
        time: '2026-12-02T11:40:00Z',
      }),
    ]);
    expect(view.reconcilers.map((r) => [r.state.name, r.state.suspended, r.notReconcilingReason])).toEqual([
      ['shop', true, 'is suspended (no automated sync)'],
      ['cart', false, undefined],
    ]);
  });

  it('renders the dashboard body', () => {
    const body = renderDashboard({ now: NOW, clusters: [view], configErrors: state.problems! });
    expectGolden('dashboard-full.md', body);
    // An Application only OutOfSync (the hand change reported) is not called failing.
    expect(body).not.toContain('is failing');
    expect(body).toContain('Out of sync, not failing (1)');
    expect(body).toContain('- `Application/shop/cart`: Argo CD reports OutOfSync');
  });

  it('lists the decisions made by comment: who, when, what, why and where, each item once, newest first', () => {
    const body = renderDashboard({ now: NOW, clusters: [view], configErrors: [] });
    const section = body.slice(body.indexOf('<details><summary>Decided by comment'));
    expect(
      section
        .slice(0, section.indexOf('</details>'))
        .split('\n')
        .filter((line) => line.startsWith('- ')),
    ).toEqual([
      expect.stringMatching(/^- `Deployment\/shop\/cart spec.replicas`: ignored by `alice` .* on #14: still the sale/),
      expect.stringMatching(
        /^- `Deployment\/shop\/web spec.template.spec.containers\[web\].image`: allowed by `maya` .* on #12: vendor mirror/,
      ),
    ]);
    expect(body).toContain('<details><summary>Decided by comment (2)</summary>');
    expect(body).not.toContain('scaled for the sale\n');
    expect(body).not.toContain('<b>');
  });

  it('keeps the list short: the newest 20, then how many more and where to look', () => {
    const many = Array.from({ length: 23 }, (_, i) => ({
      ...decisions[0],
      object: `Deployment/shop/app-${String(i).padStart(2, '0')}`,
      decidedAt: `2026-12-02T10:${String(i).padStart(2, '0')}:00Z`,
    }));
    const cluster = dashboardCluster(prod, { capturedAt: NOW, items }, state, NOW, many).view;
    const body = renderDashboard({ now: NOW, clusters: [cluster], configErrors: [] });
    expect(body).toContain('<details><summary>Decided by comment (23)</summary>');
    expect(body).toContain('`Deployment/shop/app-22 spec.replicas`');
    expect(body).toContain('`Deployment/shop/app-03 spec.replicas`');
    expect(body).not.toContain('`Deployment/shop/app-02 spec.replicas`');
    expect(body).toContain('- … and 3 older: `/driftback explain <object>` shows them');
  });

  it('lists the objects of the latest snapshot that are never written as files, with the reason', () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'ops\nadmin' } };
    const odd = dashboardCluster(
      prod,
      { capturedAt: '2026-12-02T11:50:00Z', items: [...items, role] },
      state,
      NOW,
    ).view;
    expect(odd.skipped).toEqual([expect.objectContaining({ item: `items[${items.length}]`, compared: true })]);
    const body = renderDashboard({ now: NOW, clusters: [odd], configErrors: [] });
    expect(body).toContain('<details><summary>Not written as files (1)</summary>');
    // As GitHub renders it: `"ops\nadmin" cannot be a file name: …` (quotes and backslash escaped for Markdown).
    expect(body).toContain(
      `- \`items[${items.length}]\` (ClusterRole): &quot;ops\\\\nadmin&quot; cannot be a file name: it contains a control character; compared, never written as a file`,
    );
    expect(view.skipped).toBeUndefined();
  });

  it('lists a workload an HPA and Git both scale with the plan’s fix text, and its replicas conflict once', () => {
    const web = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' };
    const drift = {
      ...state.drift!,
      autoscaledReplicas: [{ resource: web, hpa: 'shop/web', file: 'shop/web.yaml', line: 8 }],
    };
    const fighting = dashboardCluster(prod, { capturedAt: '2026-12-02T11:50:00Z', items }, { ...state, drift }, NOW);
    const body = renderDashboard({ now: NOW, clusters: [fighting.view], configErrors: [] });
    expect(body).toContain('**HPA and Git both set replicas (1)**');
    expect(body).toContain(`- \`Deployment/shop/web\` (\`shop/web.yaml:8\`): ${hpaReplicasMessage('shop/web')}`);
    expect(body).toContain('Remove `replicas` from the manifest');
    expect(body).toContain('manager `kube-controller-manager`');
    // The conflict the diff found on the same replicas is that fight: counted and said once.
    expect(body).not.toContain('<summary>Conflicts');
    expect(body).toContain('- **prod**: ⚠️ drift: 2 objects, 3 live changes; 1 conflict, ');
  });
});
