// Flux post-build substitution as kustomize-controller runs it (fluxcd/pkg kustomize/kustomize_varsub.go,
// kustomize-controller internal/controller/kustomization_controller.go `build`; StrictPostBuildSubstitutions on by
// default from kustomize-controller v1.9.0, internal/features/features.go): every string of each object, names from
// generators included; the YAML is read back, so `replicas: ${REPLICAS}` is a number; an object labelled or
// annotated `kustomize.toolkit.fluxcd.io/substitute: disabled` is left alone. A variable whose source the snapshot
// does not hold (a Secret's value, a ConfigMap another namespace holds) is never the empty string: its field is not
// checked, and in a name the source is not rendered — the cluster's other sources still are.
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { evaluateDrift, renderCluster } from '../../../src/core/pipeline/index.js';
import { displayKey, type KubeObject } from '../../../src/core/model/index.js';
import { routeChange } from '../../../src/core/codify/route.js';
import { readFixture } from '../../support/fixtures.js';

const parsed = parseConfig('clusters:\n  - name: dev\n    path: clusters/dev\n    controller: flux\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const cluster = config.clusters![0]!;

function kustomization(name: string, path: string, postBuild: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'flux-system' },
    spec: {
      interval: '10m',
      path,
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      targetNamespace: 'podinfo',
      postBuild,
    },
  };
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: \${APP}
spec:
  replicas: \${REPLICAS:=2}
  selector:
    matchLabels:
      app: \${APP}
  template:
    metadata:
      labels:
        app: \${APP}
    spec:
      containers:
        - name: app
          image: ghcr.io/stefanprodan/podinfo:\${VERSION,,}
          env:
            - name: REGION
              value: \${REGION}
            - name: ENDPOINTS
              value: \${APP}-gatus-ep
`;

const script = `apiVersion: v1
kind: ConfigMap
metadata:
  name: backup-script
  annotations:
    kustomize.toolkit.fluxcd.io/substitute: disabled
data:
  run.sh: echo "\${HOME}" && echo $$
`;

function files(apps: Record<string, unknown>, extra: [string, string][] = []): Map<string, string> {
  return new Map([
    ['clusters/dev/apps.yaml', stringify(apps)],
    ['clusters/dev/infra.yaml', stringify(kustomization('infra', './infra', { substitute: { TEAM: 'ops' } }))],
    [
      'apps/kustomization.yaml',
      'resources:\n  - deployment.yaml\n  - script.yaml\nconfigMapGenerator:\n  - name: ${APP}-gatus-ep\n    literals:\n      - interval=1m\n',
    ],
    ['apps/deployment.yaml', deployment],
    ['apps/script.yaml', script],
    [
      'infra/quota.yaml',
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: ${TEAM}-quota\nspec:\n  hard:\n    pods: "10"\n',
    ],
    ...extra,
  ]);
}

const controller = (version: string, args: string[] = []): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kustomize-controller', namespace: 'flux-system' },
  spec: {
    template: {
      spec: { containers: [{ name: 'manager', image: `ghcr.io/fluxcd/kustomize-controller:${version}`, args }] },
    },
  },
});

const clusterVars: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cluster-vars', namespace: 'flux-system' },
  data: { APP: 'podinfo', VERSION: '6.7.0' },
};

const snapshotOf = (items: KubeObject[]) => ({
  items,
  capturedAt: '2026-12-01T12:05:00Z',
  scope: { namespaces: [], complete: true, errors: [] },
});

/** The repository rendered against a snapshot holding `live` (kustomize-controller v1.9.4 alone by default). */
function renderRepo(repo: Map<string, string>, live: KubeObject[] = [controller('v1.9.4')]) {
  return renderCluster(repo, cluster, { live: snapshotOf(live) });
}

function render(postBuild: Record<string, unknown>, live: KubeObject[]) {
  return renderRepo(files(kustomization('apps', './apps', postBuild)), live);
}

/** `apps/deployment.yaml` replaced by `manifest` and substituted with `APP=podinfo` and `substitute`. */
function renderManifest(manifest: string, substitute: Record<string, string>) {
  const repo = files(kustomization('apps', './apps', { substitute: { APP: 'podinfo', ...substitute } }), [
    ['apps/deployment.yaml', manifest],
  ]);
  const rendered = renderRepo(repo);
  const apps = rendered.sources.find((s) => s.source.id.name === 'apps')!;
  const spec = rendered.objects.find((d) => d.key.name === 'web')?.object.spec as Record<string, unknown> | undefined;
  return { spec, reason: apps.reason };
}

/** Deployment `web` whose spec is `fields`, rendered as {@link renderManifest} does. */
const renderWeb = (fields: string, substitute: Record<string, string>) =>
  renderManifest(`apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n${fields}`, substitute);

function objectOf(rendered: ReturnType<typeof render>, kind: string): KubeObject | undefined {
  return rendered.objects.find((desired) => desired.key.kind === kind)?.object;
}

describe('Flux post-build substitution, as kustomize-controller applies it', () => {
  const known = render(
    { substitute: { REGION: 'eu-west-1' }, substituteFrom: [{ kind: 'ConfigMap', name: 'cluster-vars' }] },
    [controller('v1.9.4'), clusterVars],
  );

  it('substitutes names (generated ones included), labels, images and env; a default and a case change apply', () => {
    const inPodinfo = known.objects.filter((desired) => desired.key.namespace === 'podinfo');
    expect(inPodinfo.map((desired) => displayKey(desired.key)).sort()).toEqual([
      'ConfigMap/podinfo/backup-script',
      expect.stringMatching(/^ConfigMap\/podinfo\/podinfo-gatus-ep-[a-z0-9]{10}$/),
      'Deployment/podinfo/podinfo',
      'ResourceQuota/podinfo/ops-quota',
    ]);
    const spec = objectOf(known, 'Deployment')!.spec as {
      replicas: unknown;
      template: { spec: { containers: { image: string; env: { value: string }[] }[] } };
    };
    const container = spec.template.spec.containers[0]!;
    expect(container.image).toBe('ghcr.io/stefanprodan/podinfo:6.7.0');
    expect(container.env.map((e) => e.value)).toEqual(['eu-west-1', 'podinfo-gatus-ep']);
    // The YAML is read back after substitution: `replicas: 2` is a number, as the API server receives it.
    expect(spec.replicas).toBe(2);
  });

  it('leaves an object marked `substitute: disabled` as written', () => {
    const data = known.objects.find((d) => d.key.name === 'backup-script')!.object.data as Record<string, string>;
    expect(data['run.sh']).toBe('echo "${HOME}" && echo $$');
  });

  it('a variable from a ConfigMap the snapshot does not hold is not checked, never the empty string', () => {
    const rendered = render(
      {
        substitute: { APP: 'podinfo', VERSION: '6.7.0' },
        substituteFrom: [{ kind: 'ConfigMap', name: 'region-vars' }],
      },
      [controller('v1.9.4')],
    );
    const env = (
      objectOf(rendered, 'Deployment')!.spec as { template: { spec: { containers: { env: { value: string }[] }[] } } }
    ).template.spec.containers[0]!.env;
    expect(env[0]!.value).not.toBe('');
    // That ConfigMap may set any variable, REPLICAS too: its default is not taken either.
    expect(rendered.notes.filter((n) => n.code === 'not-checkable').map((n) => n.message)).toEqual([
      'spec.replicas uses ${REPLICAS} from ConfigMap flux-system/region-vars ' +
        '(not in the snapshot), whose value the snapshot does not hold',
      'spec.template.spec.containers[app].env[REGION].value uses ${REGION} from ConfigMap flux-system/region-vars ' +
        '(not in the snapshot), whose value the snapshot does not hold',
    ]);
  });

  it('an unknown variable in a name leaves that source not rendered; the other sources are rendered', () => {
    const rendered = render({ substituteFrom: [{ kind: 'Secret', name: 'cluster-secret-vars' }] }, [
      controller('v1.9.4'),
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'cluster-secret-vars', namespace: 'flux-system' },
        data: { APP: 'sha256:0f1e' },
      },
    ]);
    const apps = rendered.sources.find((s) => s.source.id.name === 'apps')!;
    expect(apps).toMatchObject({ scope: 'not-rendered' });
    expect(apps.reason).toContain('variable APP unknown (from Secret flux-system/cluster-secret-vars)');
    expect(rendered.sources.find((s) => s.source.id.name === 'infra')).toMatchObject({ scope: 'rendered' });
    expect(rendered.objects.map((d) => displayKey(d.key))).toContain('ResourceQuota/podinfo/ops-quota');
  });

  it('strict mode (kustomize-controller v1.9 and later): an unset variable without a default fails the source', () => {
    const rendered = render({ substitute: { APP: 'podinfo', VERSION: '6.7.0' } }, [controller('v1.9.4')]);
    const apps = rendered.sources.find((s) => s.source.id.name === 'apps')!;
    expect(apps.scope).toBe('not-rendered');
    expect(apps.reason).toContain('variable not set (strict mode): "REGION"');
  });

  it('without strict mode (an older controller, or the feature gate off) an unset variable is empty: `value: ` reads back as null', () => {
    for (const flux of [
      controller('v1.8.2'),
      controller('v1.9.4', ['--feature-gates=StrictPostBuildSubstitutions=false']),
    ]) {
      const rendered = render({ substitute: { APP: 'podinfo', VERSION: '6.7.0' } }, [flux]);
      const spec = objectOf(rendered, 'Deployment')!.spec as {
        template: { spec: { containers: { env: { value: string | null }[] }[] } };
      };
      // kustomize-controller substitutes the YAML text, then reads it back: `value: ` is null, not "".
      expect(spec.template.spec.containers[0]!.env[0]!.value).toBeNull();
    }
  });

  it('an envsubst syntax error fails that source with the object named', () => {
    const broken = files(kustomization('apps', './apps', { substitute: { APP: 'podinfo', VERSION: '1' } }), [
      ['apps/deployment.yaml', deployment.replace('${REGION}', '${REGION-eu}')],
    ]);
    const rendered = renderRepo(broken);
    const apps = rendered.sources.find((s) => s.source.id.name === 'apps')!;
    expect(apps.reason).toContain(
      "post build failed for 'Deployment/${APP}': variable substitution failed: missing closing brace",
    );
  });

  it('a value from a Secret is never drift, and neither side prints it', () => {
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'region-secret', namespace: 'flux-system' },
      data: { REGION: 'sha256:9a8b' },
    };
    const liveDeployment = structuredClone(objectOf(known, 'Deployment')!);
    delete liveDeployment.metadata.labels;
    const items = [controller('v1.9.4'), clusterVars, secret, liveDeployment];
    const apps = kustomization('apps', './apps', {
      substituteFrom: [
        { kind: 'ConfigMap', name: 'cluster-vars' },
        { kind: 'Secret', name: 'region-secret' },
      ],
    });
    const evaluation = evaluateDrift({
      snapshot: snapshotOf(items),
      ...{ config, cluster, files: files(apps), history: [], minSnapshots: 1, declined: new Set<string>() },
    });
    if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
    const changes = evaluation.diff.resources.flatMap((r) => r.changes.map((c) => c.path));
    expect(changes.filter((path) => path.includes('/env/'))).toEqual([]);
    expect(JSON.stringify(evaluation.diff)).not.toContain('eu-west-1');
  });

  it('codify: a live change to `${VAR}` goes to the inline substitute when that field alone reads it', () => {
    const desired = known.objects.find((d) => d.key.kind === 'Deployment')!;
    const route = routeChange(desired, '/spec/template/spec/containers/0/env/0/value');
    expect(route).toMatchObject({ type: 'scalar', file: 'clusters/dev/apps.yaml' });
    const { range } = route as { range: [number, number] };
    const source = stringify(
      kustomization('apps', './apps', {
        substitute: { REGION: 'eu-west-1' },
        substituteFrom: [{ kind: 'ConfigMap', name: 'cluster-vars' }],
      }),
    );
    expect(source.slice(range[0], range[1])).toBe('eu-west-1');
  });

  it('codify: a variable several fields read, or one from a ConfigMap, is reported with its source, never written over', () => {
    const desired = known.objects.find((d) => d.key.kind === 'Deployment')!;
    expect(routeChange(desired, '/spec/template/spec/containers/0/env/1/value')).toEqual({
      type: 'unsupported',
      reason:
        'Git writes `${APP}-gatus-ep`, substituted by Kustomization flux-system/apps (clusters/dev/apps.yaml): ' +
        '${APP} from ConfigMap flux-system/cluster-vars; change the variable where it is set for this cluster, not the manifest',
    });
  });
});

// kustomize-controller substitutes text, not values (fluxcd/pkg kustomize/kustomize_varsub.go): `res.AsYAML()` writes the
// object with go-yaml v2 (sigs.k8s.io/yaml JSONToYAML — the file's own quotes are gone), envsubst runs on that text,
// and YAMLToJSON reads it back with go-yaml v2's YAML 1.1 rules.
describe("Flux post-build substitution reads the substituted YAML back as Flux's YAML round trip does", () => {
  it('`replicas: ${REPLICAS}` is an integer', () => {
    expect(renderWeb('  replicas: ${REPLICAS}\n', { REPLICAS: '3' }).spec?.replicas).toBe(3);
  });

  it('`"${PORT}"` is written unquoted by Flux, so a number comes back as a number (fluxcd/flux2#1839)', () => {
    expect(renderWeb('  port: "${PORT}"\n', { PORT: '8080' }).spec?.port).toBe(8080);
    // The workaround users write: quotes inside the value survive as YAML quotes.
    expect(renderWeb('  port: "${PORT}"\n', { PORT: '"8080"' }).spec?.port).toBe('8080');
  });

  // Each case: the Deployment's spec fields, the variables set inline, and what the rendered spec holds.
  it.each<[string, string, Record<string, string>, Record<string, unknown>]>([
    [
      'YAML 1.1 scalars: `yes` and `off` are booleans, `0755` is octal, `~` is null; a timestamp stays text',
      '  a: ${A}\n  b: ${B}\n  c: ${C}\n  d: ${D}\n  e: ${E}\n',
      { A: 'yes', B: 'off', C: '0755', D: '~', E: '2026-12-01' },
      { a: true, b: false, c: 493, d: null, e: '2026-12-01' },
    ],
    [
      'text around the variable keeps the value a string; a value after `#` or `: ` in the text stays in its quotes',
      '  a: v${A}\n  b: "#${B}"\n  c: "x: ${C}"\n',
      { A: '1', B: '2b9348', C: '3' },
      { a: 'v1', b: '#2b9348', c: 'x: 3' },
    ],
    [
      'a value starting with `#` is a YAML comment when the text is `${VAR}` alone: the field is null',
      '  color: "${COLOR:=#34577c}"\n',
      {},
      { color: null },
    ],
    [
      'a value in flow syntax changes the field to a list',
      '  args: ${ARGS}\n',
      { ARGS: '[--verbose, --port=80]' },
      { args: ['--verbose', '--port=80'] },
    ],
    [
      'a newline in a variable is removed before substitution; a multi-line text is a literal block',
      '  line: ${LINE}\n  script: |\n    echo ${LINE}\n    exit 0\n',
      { LINE: 'a\nb' },
      { line: 'ab', script: 'echo ab\nexit 0\n' },
    ],
    [
      'defaults and case changes: `${VAR:=default}`, `${VAR^^}`',
      '  replicas: ${REPLICAS:=2}\n  region: ${REGION^^}\n  enabled: ${ENABLED:=true}\n',
      { REGION: 'eu-west-1' },
      { replicas: 2, region: 'EU-WEST-1', enabled: true },
    ],
  ])('%s', (_name, fields, substitute, spec) => {
    expect(renderWeb(fields, substitute).spec).toMatchObject(spec);
  });

  it('a value holding `: ` in an unquoted scalar fails the build: the source is not rendered, with the reason', () => {
    const { spec, reason } = renderWeb('  message: ${MESSAGE}\n', { MESSAGE: 'hello: world' });
    expect(spec).toBeUndefined();
    expect(reason).toMatch(/post build failed for 'Deployment\/web': envsubst error: YAMLToJSON: yaml: /);
  });

  it("a value inside a single-quoted scalar with a `'` breaks the YAML, as it breaks Flux's build", () => {
    const { reason } = renderWeb("  note: ' ${NOTE}'\n", { NOTE: "it's" });
    expect(reason).toMatch(/envsubst error: YAMLToJSON: yaml: /);
  });

  it('an object annotated `substitute: disabled` keeps its text, typed as written', () => {
    const manifest =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' +
      '  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\nspec:\n  replicas: 1\n  port: "${PORT}"\n';
    expect(renderManifest(manifest, { PORT: '8080' }).spec).toMatchObject({
      replicas: 1,
      port: '${PORT}',
    });
  });
});

// YAMLToJSON reads the substituted object back as one document (sigs.k8s.io/yaml over go-yaml v2): the
// error names the line of the document JSONToYAML wrote (keys sorted, go-yaml's layout), a key is typed
// by YAML 1.1 rules like a value, and go-yaml v2's writer folds a scalar past column 80 (best_width) —
// envsubst runs on that folded text.
describe('Flux post-build substitution reads the whole substituted document back as go-yaml v2 does', () => {
  const failed = (problem: string): string =>
    `clusters/dev/apps.yaml: spec.postBuild: post build failed for 'Deployment/web': envsubst error: YAMLToJSON: ${problem}`;

  it("a `: ` substituted into a plain value: go-yaml's message, with the line of the written document", () => {
    // apiVersion, kind, metadata, name, namespace, spec, then `message: hello: world` on line 7.
    const { spec, reason } = renderWeb('  message: ${MESSAGE}\n', { MESSAGE: 'hello: world' });
    expect(spec).toBeUndefined();
    expect(reason).toBe(failed('yaml: line 7: mapping values are not allowed in this context'));
  });

  it('the line counts the document as go-yaml writes it: keys sorted, not as the file has them', () => {
    const { reason } = renderWeb('  zone: a\n  alpha: ${X}\n', { X: 'b: c' });
    expect(reason).toBe(failed('yaml: line 7: mapping values are not allowed in this context'));
    expect(renderWeb('  zone: ${X}\n  alpha: a\n', { X: 'b: c' }).reason).toBe(
      failed('yaml: line 8: mapping values are not allowed in this context'),
    );
  });

  it('other classes: a quote the value closes early, a character no token starts with, an unknown alias', () => {
    expect(renderWeb("  note: ' ${NOTE}'\n", { NOTE: "it's" }).reason).toBe(
      failed('yaml: line 6: did not find expected key'),
    );
    expect(renderWeb('  note: ${NOTE}\n', { NOTE: '@here' }).reason).toBe(
      failed('yaml: line 7: found character that cannot start any token'),
    );
    expect(renderWeb('  note: ${NOTE}\n', { NOTE: '*base' }).reason).toBe(
      failed("yaml: unknown anchor 'base' referenced"),
    );
  });

  it('a substituted key is typed by YAML 1.1 rules too, then written as text as YAMLToJSON does', () => {
    const fields = '  selector:\n    ${A}: x\n    ${B}: y\n    ${C}: z\n    ${D}: w\n';
    expect(renderWeb(fields, { A: 'yes', B: '0x10', C: '1.50', D: 'team' }).spec?.selector).toEqual({
      true: 'x',
      16: 'y',
      1.5: 'z',
      team: 'w',
    });
    expect(renderWeb('  ${A}: x\n', { A: '~' }).reason).toMatch(
      /post build failed for 'Deployment\/web': envsubst error: YAMLToJSON: unsupported map key of type: %!s\(<nil>\)/,
    );
  });

  // `  text: ` is 8 columns; the plain scalar folds at the first single space past column 80.
  const long = 'a'.repeat(73);

  it('a value substituted next to a fold loses the spaces around the line break, as in Flux', () => {
    expect(renderWeb(`  text: ${long} \${EMPTY} tail\n`, { EMPTY: '' }).spec?.text).toBe(`${long} tail`);
    expect(renderWeb(`  text: ${long} \${EMPTY} tail\n`, { EMPTY: 'x' }).spec?.text).toBe(`${long} x tail`);
    // A single-quoted scalar (it starts with `#`) folds the same way: `  text: '#` is 10 columns.
    const hashed = `#${'a'.repeat(72)}`;
    expect(renderWeb(`  text: "${hashed} \${EMPTY} tail"\n`, { EMPTY: '' }).spec?.text).toBe(`${hashed} tail`);
    // Short of the fold the same value keeps both spaces.
    expect(renderWeb(`  text: ${'a'.repeat(20)} \${EMPTY} tail\n`, { EMPTY: '' }).spec?.text).toBe(
      `${'a'.repeat(20)}  tail`,
    );
  });

  it('long text without variables reads back as it was, runs of spaces, quotes and escapes included', () => {
    const note = `${'word '.repeat(30)}two  spaces ${'x'.repeat(90)} "quoted" tab\there é 🚀 end`;
    const title = `# ${'heading '.repeat(15)}it's done`;
    const fields = `  note: ${JSON.stringify(note)}\n  title: ${JSON.stringify(title)}\n  app: \${APP}\n`;
    expect(renderWeb(fields, {}).spec).toMatchObject({ note, title, app: 'podinfo' });
  });

  it('an anchor substituted into one field serves an alias in another (the document is read whole)', () => {
    const fields = '  first: ${FIRST}\n  second: ${SECOND}\n';
    expect(renderWeb(fields, { FIRST: '&shared eu-west-1', SECOND: '*shared' }).spec).toMatchObject({
      first: 'eu-west-1',
      second: 'eu-west-1',
    });
  });

  it('a `#` substituted before a fold comments out the line; the folded rest becomes the value', () => {
    const fields = `  text: \${MARK} ${'b'.repeat(80)} tail\n`;
    expect(renderWeb(fields, { MARK: '#' }).spec?.text).toBe('tail');
  });

  it('a substituted object past what the API server accepts (3 MiB) is not rendered, never built', () => {
    const fields = Array.from({ length: 40 }, (_, i) => `  f${i}: \${BIG}\n`).join('');
    expect(renderWeb(fields, { BIG: 'x'.repeat(100_000) }).reason).toBe(
      "clusters/dev/apps.yaml: spec.postBuild: post build failed for 'Deployment/web': the substituted object is larger than 3 MiB",
    );
  });
});

// fluxcd/pkg kustomize/kustomize_varsub_test.go TestKustomization_Varsub, on its own test data (copied byte for byte
// to test/fixtures/upstream/fluxcd-pkg): the resources built and substituted equal kustomization_varsub_expected.yaml.
// `prometheus_scrape: '"true"'` in the ConfigMap is the quoting users write so the annotation stays a string.
describe("Flux post-build substitution on fluxcd/pkg's own test data", () => {
  const data = (name: string): string => readFixture('fluxcd-pkg', 'kustomize', 'testdata', name);

  it('renders what TestKustomization_Varsub expects', () => {
    // The cluster's own Kustomization reads the same GitRepository (`app`): that source is this repository.
    const root = kustomization('cluster', './clusters/dev', {}) as { metadata: object; spec: object };
    const rootSpec = { ...root.spec, sourceRef: { kind: 'GitRepository', name: 'app' }, postBuild: undefined };
    const repo = new Map([
      [
        'clusters/dev/cluster.yaml',
        stringify({ ...root, metadata: { name: 'cluster', namespace: 'apps' }, spec: rootSpec }),
      ],
      ['clusters/dev/app.yaml', data('kustomization_varsub.yaml')],
      ['kustomize/kustomization.yml', data('resources/kustomization.yml')],
      ['kustomize/deployment.yaml', data('resources/deployment.yaml')],
      ['kustomize/config.yaml', data('resources/config.yaml')],
    ]);
    const rendered = renderRepo(repo, [controller('v1.9.4'), parse(data('configmap.yaml')) as KubeObject]);
    const app = rendered.sources.find((s) => s.source.id.name === 'app')!;
    expect(app.reason).toBeUndefined();
    const expected = parseAllDocuments(data('kustomization_varsub_expected.yaml')).map((d) => d.toJS() as KubeObject);
    expect(expected).toHaveLength(2);
    for (const object of expected) {
      const found = rendered.objects.find((d) => d.key.kind === object.kind && d.key.name === object.metadata!.name);
      expect(found?.object).toMatchObject(object);
    }
  });
});
