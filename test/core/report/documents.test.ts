// Golden Markdown for the drift pull request body, the dashboard issue, the alert issues and the
// drift report; and the escaping and size promises each of them keeps.
import { describe, expect, it } from 'vitest';
import {
  GITHUB_BODY_LIMIT,
  isBalanced,
  renderDashboard,
  renderDriftMarkdown,
  renderDriftPullRequest,
  renderNotReconcilingAlert,
  renderStaleAlert,
  type DashboardView,
  type DriftPullRequestView,
  escapeProse,
  inlineCode,
} from '../../../src/core/report/index.js';
import { autoscalerReason } from '../../../src/core/k8s/index.js';
import type { DiffResult, FieldChange, ResourceDiff, ResourceKey } from '../../../src/core/model/index.js';
import { expectGolden } from './golden.js';
import { mentionableText } from '../../support/rendered-markdown.js';

const api: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'checkout', name: 'api' };
const worker: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'checkout', name: 'worker' };
const scale: FieldChange = {
  path: '/spec/replicas',
  segments: ['spec', 'replicas'],
  op: 'replace',
  desired: 3,
  live: 8,
  manager: 'kubectl-scale',
  time: '2026-12-02T03:02:11Z',
  cause: 'human',
};
const env: FieldChange = {
  path: '/spec/template/spec/containers/0/env/1',
  segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'server' } }, 'env', { key: { name: 'DEBUG' } }],
  op: 'add',
  live: { name: 'DEBUG', value: '1' },
  manager: 'kubectl-edit',
  time: '2026-12-02T03:10:00Z',
  cause: 'human',
};
const args: FieldChange = {
  path: '/spec/template/spec/containers/0/args',
  segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'server' } }, 'args'],
  op: 'replace',
  desired: ['--port=8080', '--log-level=info'],
  live: ['--port=8080', '--log-level=debug', '--trace-sampling=0.5', '--profile-cpu'],
  manager: 'kubectl-edit',
  time: '2026-12-02T03:10:00Z',
  cause: 'human',
};
const port: FieldChange = {
  path: '/spec/ports/0/targetPort',
  segments: ['spec', 'ports', { key: { port: 80, protocol: 'TCP' } }, 'targetPort'],
  op: 'replace',
  desired: 8080,
  live: 9090,
  manager: 'kubectl-patch',
  time: '2026-12-01T22:40:00Z',
  cause: 'human',
};
// A multi-line value is the one kind that still folds into a diff below the table.
const nginxConf: FieldChange = {
  path: '/data/nginx.conf',
  segments: ['data', 'nginx.conf'],
  op: 'replace',
  desired: 'server {\n  listen 80;\n  location / { proxy_pass http://api:8080; }\n}\n',
  live: 'server {\n  listen 80;\n  location / { proxy_pass http://api:9090; }\n}\n',
  manager: 'kubectl-edit',
  time: '2026-12-02T03:20:00Z',
  cause: 'human',
};
const hotfix: ResourceKey = { group: '', kind: 'ConfigMap', namespace: 'checkout', name: 'hotfix' };
/** ConfigMap hotfix, made by hand with kubectl create: extra. */
const hotfixMade: ResourceDiff = {
  key: hotfix,
  status: 'extra',
  changes: [],
  ignored: [],
  conflicts: [],
  createdBy: { manager: 'kubectl-create', cause: 'human', time: '2026-12-02T02:00:00Z' },
};
const hpa: FieldChange = {
  path: '/spec/replicas',
  segments: ['spec', 'replicas'],
  op: 'replace',
  desired: 2,
  live: 6,
  manager: 'horizontal-pod-autoscaler',
  time: '2026-12-02T04:00:00Z',
  cause: 'controller',
};

const prView: DriftPullRequestView = {
  cluster: 'prod-eu',
  codified: [
    { key: api, change: scale, file: 'clusters/prod-eu/checkout/api.yaml', line: 9, kind: 'replace' },
    { key: api, change: env, file: 'clusters/prod-eu/checkout/api.yaml', line: 24, kind: 'add' },
    { key: api, change: args, file: 'clusters/prod-eu/checkout/api.yaml', line: 19, kind: 'replace' },
    {
      key: { group: '', kind: 'Service', namespace: 'checkout', name: 'api' },
      change: port,
      file: 'clusters/prod-eu/checkout/api-service.yaml',
      line: 12,
      kind: 'replace',
    },
    {
      key: { group: '', kind: 'ConfigMap', namespace: 'checkout', name: 'nginx' },
      change: nginxConf,
      file: 'clusters/prod-eu/checkout/nginx.yaml',
      line: 6,
      kind: 'replace',
    },
    { key: hotfix, file: 'clusters/prod-eu/checkout/ConfigMap-hotfix.yaml', kind: 'new-file' },
  ],
  reported: [
    {
      key: worker,
      change: hpa,
      reason: autoscalerReason({ kind: 'HorizontalPodAutoscaler', namespace: 'checkout', name: 'worker' }, false),
    },
  ],
  snapshot: { id: 'snap-42', capturedAt: '2026-12-02T05:00:00Z' },
  drift: {
    resources: [hotfixMade],
    summary: { inSync: 40, modified: 2, missing: 0, extra: 1, ignored: 0, conflicts: 0 },
    unlisted: [],
  },
};

const dashboard: DashboardView = {
  now: '2026-12-02T12:00:00Z',
  configErrors: [
    {
      file: '.github/driftback.yml',
      line: 4,
      field: 'clusters[1].staleAfter',
      message: 'expected a duration like 30m',
    },
  ],
  clusters: [
    {
      name: 'prod-eu',
      lastSnapshotAt: '2026-12-02T11:55:00Z',
      staleAfter: '30m',
      resourcesInScope: 42,
      driftByCause: { human: 2, controller: 1 },
      drift: { objects: 2, changes: { human: 3, controller: 1 } },
      conflicts: [{ key: worker, path: '/spec/replicas', manager: 'horizontal-pod-autoscaler' }],
      ignored: [{ reason: 'replicas belong to the HPA', count: 3 }],
      degraded: [{ key: worker, message: 'Deployment "worker" exceeded its progress deadline' }],
      reconcilers: [
        {
          state: {
            kind: 'flux-kustomization',
            name: 'apps',
            namespace: 'flux-system',
            path: './clusters/prod-eu',
            suspended: true,
            since: '2026-12-01T08:00:00Z',
          },
        },
        {
          state: { kind: 'argocd-application', name: 'shop', namespace: 'argocd', suspended: false, ready: false },
          notReconcilingReason: 'is failing: ComparisonError',
        },
      ],
      openPullRequests: [{ number: 17 }],
    },
    {
      name: 'staging',
      staleAfter: '1h',
      resourcesInScope: 0,
      driftByCause: {},
      conflicts: [],
      ignored: [],
      degraded: [],
      reconcilers: [],
      openPullRequests: [],
    },
    {
      name: 'prod-us',
      lastSnapshotAt: '2026-12-01T12:00:00Z',
      staleAfter: '30m',
      resourcesInScope: 40,
      driftByCause: {},
      conflicts: [],
      ignored: [],
      degraded: [],
      reconcilers: [],
      openPullRequests: [],
    },
  ],
};

describe('documents (golden)', () => {
  it('drift pull request body', () => expectGolden('drift-pull-request.md', renderDriftPullRequest(prView)));
  it('drift pull request body of a Flux cluster: the sources the changes come from', () => {
    const flux = { controller: 'flux' as const, scope: 'rendered' as const, suspended: false };
    const sources = [
      {
        ...flux,
        name: 'flux-system/apps',
        path: './apps/production',
        appliedRevision: 'main@sha1:4f2c9a1',
        counts: { drift: 2, changes: 4 },
      },
      {
        ...flux,
        name: 'flux-system/infra',
        path: './infrastructure',
        suspended: true,
        counts: { drift: 1, changes: 1 },
      },
      { ...flux, name: 'flux-system/flux-system', path: './clusters/prod', counts: { drift: 0, changes: 0 } },
      { ...flux, name: 'flux-system/podinfo', scope: 'out-of-scope' as const, counts: {} },
    ];
    expectGolden('drift-pull-request-sources.md', renderDriftPullRequest({ ...prView, sources }));
  });
  it('drift pull request body of changes under charts: each row names the chart value it edits', () => {
    const podinfo: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'podinfo' };
    const web: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' };
    const image: FieldChange = {
      path: '/spec/template/spec/containers/0/image',
      segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'podinfo' } }, 'image'],
      op: 'replace',
      desired: 'ghcr.io/stefanprodan/podinfo:6.7.0',
      live: 'ghcr.io/stefanprodan/podinfo:6.7.1',
      manager: 'kubectl-set',
      time: '2026-12-02T03:12:00Z',
      cause: 'human',
    };
    const codified = [
      {
        key: podinfo,
        change: scale,
        file: 'apps/podinfo/values.yaml',
        line: 3,
        kind: 'replace',
        chartValue: { path: ['replicaCount'], where: 'apps/podinfo/values.yaml', source: 'HelmRelease shop/podinfo' },
      },
      {
        key: podinfo,
        change: image,
        file: 'apps/podinfo/release.yaml',
        line: 21,
        kind: 'replace',
        chartValue: { path: ['image', 'tag'], where: 'spec.values', source: 'HelmRelease shop/podinfo' },
      },
      {
        key: web,
        change: scale,
        file: 'apps/web/web-values.yaml',
        line: 6,
        kind: 'replace',
        chartValue: {
          path: ['replicaCount'],
          where: 'data.values.yaml',
          object: 'ConfigMap shop/web-values',
          source: 'HelmRelease shop/web',
        },
      },
    ];
    const body = renderDriftPullRequest({ ...prView, codified, reported: [], drift: undefined });
    expect(body).toContain('<br>`replicaCount` in `podinfo/values.yaml` (chart value of HelmRelease shop/podinfo) |');
    expectGolden('drift-pull-request-chart.md', body);
  });
  it('dashboard issue body', () => expectGolden('dashboard.md', renderDashboard(dashboard)));
  it('stale alert issue', () => {
    const issue = renderStaleAlert({
      cluster: 'prod-us',
      now: '2026-12-02T12:00:00Z',
      lastCapturedAt: '2026-12-01T12:00:00Z',
      staleAfter: '30m',
    });
    expect(issue.title).toBe('driftback: prod-us is not reporting');
    expectGolden('stale-alert.md', issue.body);
  });
  it('not-reconciling alert issue', () => {
    const issue = renderNotReconcilingAlert({
      cluster: 'prod-eu',
      state: dashboard.clusters[0].reconcilers[0].state,
      reason: 'has been suspended since 2026-12-01 08:00 UTC',
    });
    expect(issue.title).toBe('driftback: prod-eu: flux-system/apps is not reconciling');
    expect(issue.body).toContain('flux resume kustomization apps -n flux-system');
    expectGolden('not-reconciling-alert.md', issue.body);
  });
  it('drift report markdown', () => {
    const result: DiffResult = {
      resources: [
        { key: api, status: 'modified', changes: [scale, env, args], ignored: [], conflicts: [] },
        hotfixMade,
      ],
      summary: { inSync: 40, modified: 1, missing: 0, extra: 1, ignored: 2, conflicts: 0 },
      unlisted: ['apps/v1/statefulsets'],
    };
    expectGolden('drift-markdown.md', renderDriftMarkdown(result));
  });
});

describe('documents keep their promises', () => {
  it('the dashboard flags a stale cluster and one that never reported', () => {
    const body = renderDashboard(dashboard);
    expect(body).toMatch(/### prod-us\n\n- Snapshots: ⚠️ \*\*not reporting\*\*: last one taken 2026-12-01 12:00 UTC/);
    expect(body).toMatch(/### staging\n\n- Snapshots: ⚠️ \*\*none received yet\*\*/);
    // No snapshot, no claim: never "Drift: none" for a cluster nobody has seen; a stale one says as of when.
    expect(body).toMatch(/### staging\n\n[^#]*- Drift: unknown \(no snapshot yet\)/);
    expect(body).toContain('- Drift: none (as of 2026-12-01 12:00 UTC)');
    // One status line per cluster opens the issue.
    const status = body.split('\n').filter((line) => /^- \*\*[\w-]+\*\*: /.test(line));
    expect(status).toEqual([
      '- **prod-eu**: ⚠️ drift: 2 objects, 4 live changes; 1 conflict, 1 suspended, 1 not reconciling, 1 degraded resource; drift pull request #17',
      '- **staging**: ⚠️ unknown (no snapshot yet)',
      '- **prod-us**: ⚠️ not reporting; as of its last snapshot (2026-12-01 12:00 UTC): no drift',
    ]);
  });

  it('values from the cluster cannot break a table, inject HTML or mention anyone', () => {
    const inline: FieldChange = { ...scale, live: 'x | <b>y</b> @octocat', manager: '@ghost' };
    const long: FieldChange = {
      ...scale,
      path: '/spec/paused',
      segments: ['spec', 'paused'],
      live: 'x | y <script>alert(1)</script> @octocat\nnext',
    };
    const body = renderDriftPullRequest({
      ...prView,
      codified: [
        { key: api, change: inline, file: 'a.yaml', kind: 'replace' },
        { key: api, change: long, file: 'a.yaml', kind: 'replace' },
      ],
    });
    const rows = body.split('\n').filter((line) => line.includes('a.yaml'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(5);
    const outsideFences = body.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '');
    expect(outsideFences).not.toMatch(/<b>|<script>/);
    expect(mentionableText(body)).not.toMatch(/@octocat|@ghost/);
  });

  it('a new manifest written elsewhere than newResourcePath says why, next to its file', () => {
    const note =
      'written at the top level of clusters/prod-eu, not at clusters/prod-eu/checkout/configmap-hotfix.yaml: Argo CD Application argocd/root reads only the top level of clusters/prod-eu (directory.recurse is off)';
    const codified = [{ key: hotfix, file: 'clusters/prod-eu/configmap-hotfix.yaml', kind: 'new-file', note }];
    const body = renderDriftPullRequest({ ...prView, codified });
    // The note's long path may break in the table (`<wbr>`); its text is the note's.
    const row = body.split('\n').find((line) => line.startsWith('| `ConfigMap/checkout/hotfix` |'));
    expect(row?.replaceAll('<wbr>', '')).toBe(
      '| `ConfigMap/checkout/hotfix` | kubectl-create<br>02:00 UTC | `configmap-hotfix.yaml`<br>written at the top level of clusters/prod-eu, not at clusters/prod-eu/checkout/configmap-hotfix.yaml: Argo CD Application argocd/root reads only the top level of clusters/prod-eu (directory.recurse is off) |',
    );
  });

  it('a drift PR with 5,000 changes stays within the limit', () => {
    const codified = Array.from({ length: 5000 }, (_, i) => ({
      key: { ...api, name: `api-${i}` },
      change: scale,
      file: `apps/api-${i}.yaml`,
      line: 9,
      kind: 'replace',
    }));
    const body = renderDriftPullRequest({ ...prView, codified });
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(body).toMatch(/and \d+ more changes/);
    expect(isBalanced(body)).toBe(true);
  });
});

describe('code is shown as written', () => {
  it('a digest or a Flux revision in a code span keeps its `@` (GitHub links no mention in code)', () => {
    const image =
      'ghcr.io/stefanprodan/podinfo@sha256:5b6c1b3e4f0e9c2a7d8b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d';
    expect(inlineCode(image)).toBe('`' + image + '`');
    expect(escapeProse('applied `main@sha1:7c1f4e2a` by @flux')).toBe('applied `main@sha1:7c1f4e2a` by @\u200bflux');
  });
});
