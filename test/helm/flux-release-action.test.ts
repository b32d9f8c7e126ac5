// helm-controller upgrades a release it finds installed and installs one it does not, and leaves one in
// sync alone: a HelmRelease whose live status.history holds a release past revision 1 renders as
// `helm template --is-upgrade`, one without (or at revision 1, the install's output) as `helm template`,
// compared object for object with the pinned Helm run on the same chart.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { chartFiles, expectSame, helmTemplateObjects, liveReleaseAction, RELEASE_ACTION } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';

const helm = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!helm.found) throw new Error(helm.reason);
const binary = helm.helm;

const SERVER = { gitVersion: 'v1.32.3', resources: [] };

function render(
  live: KubeObject[],
  charts = createChartRenderer({ helm: binary }),
  release = RELEASE_ACTION,
): KubeObject[] {
  const files = chartFiles('charts/release-action', 'charts/release-action');
  files.set('clusters/prod/release.yaml', release);
  const rendered = renderCluster(
    files,
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' },
    { live: { items: live, server: SERVER }, charts },
  );
  expect(rendered.errors).toEqual([]);
  expect(rendered.notRendered ?? []).toEqual([]);
  return rendered.objects.map((desired) => desired.object).filter((obj) => obj.kind !== 'HelmRelease');
}

function helmTemplate(extra: string[]): KubeObject[] {
  const chart = join(REPO_ROOT, 'test/fixtures/charts/release-action');
  return helmTemplateObjects('action', chart, ['--namespace', 'apps', '--include-crds', ...extra]);
}

const names = (objects: KubeObject[]) => objects.map((obj) => obj.metadata?.name).sort();

describe('a Flux HelmRelease rendered as helm-controller releases it', () => {
  it('renders as an install when the snapshot has no release of it', () => {
    const ours = render([]);
    expectSame(ours, helmTemplate([]), 'apps');
    expect(names(ours)).toEqual(['action-action', 'action-first-install']);
  });

  it('renders as an install when the live HelmRelease has no history yet', () => {
    expectSame(render([liveReleaseAction([])]), helmTemplate([]), 'apps');
  });

  it('renders as an install while the install is the deployed release (revision 1)', () => {
    const ours = render([liveReleaseAction([{ status: 'deployed', version: 1 }])]);
    expectSame(ours, helmTemplate([]), 'apps');
    expect(names(ours)).toEqual(['action-action', 'action-first-install']);
  });

  it('renders as an upgrade when head declares the release otherwise than the installed revision 1 holds it', () => {
    const installed = liveReleaseAction([{ status: 'deployed', version: 1 }]);
    const changed = RELEASE_ACTION.replace('  interval: 10m\n', '  interval: 10m\n  values:\n    replicaCount: 2\n');
    const ours = render([installed], undefined, changed);
    expectSame(ours, helmTemplate(['--is-upgrade', '--set', 'replicaCount=2']), 'apps');
    expect(names(ours)).toEqual(['action-action']);
    // A default the cluster adds to the spec is no change of the release.
    const defaulted = { ...installed, spec: { ...(installed.spec as object), timeout: '5m' } };
    expect(names(render([defaulted]))).toEqual(['action-action', 'action-first-install']);
  });

  it('renders as an upgrade once an upgrade is deployed, without the install-only object', () => {
    const ours = render([liveReleaseAction([{ status: 'deployed', version: 3 }])]);
    expectSame(ours, helmTemplate(['--is-upgrade']), 'apps');
    expect(names(ours)).toEqual(['action-action']);
    expect(ours[0]!.data).toEqual({ action: 'upgrade', isInstall: 'false', replicas: '1' });
  });

  it('renders as an upgrade after a failed upgrade, which helm-controller upgrades again', () => {
    const live = liveReleaseAction([
      { status: 'failed', version: 4 },
      { status: 'superseded', version: 3 },
    ]);
    expectSame(render([live]), helmTemplate(['--is-upgrade']), 'apps');
  });

  it('renders as an install after an uninstall, and after a failed first install', () => {
    expectSame(render([liveReleaseAction([{ status: 'uninstalled', version: 2 }])]), helmTemplate([]), 'apps');
    expectSame(render([liveReleaseAction([{ status: 'failed', version: 1 }])]), helmTemplate([]), 'apps');
  });

  it('keeps an install render and an upgrade render of the same chart apart in one renderer', () => {
    const charts = createChartRenderer({ helm: binary });
    expect(names(render([], charts))).toEqual(['action-action', 'action-first-install']);
    expect(names(render([liveReleaseAction([{ status: 'deployed', version: 2 }])], charts))).toEqual(['action-action']);
    expect(names(render([], charts))).toEqual(['action-action', 'action-first-install']);
  });
});
