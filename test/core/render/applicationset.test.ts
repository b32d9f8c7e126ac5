// ApplicationSets expanded as the applicationset controller expands them (applicationset/generators/*.go,
// applicationset/utils/utils.go), on Argo CD's own examples (test/fixtures/upstream/argo-cd-applicationset,
// applicationset/examples/ of argoproj/argo-cd, Apache-2.0): the repository is argoproj/argo-cd, so the
// git generators read it; the generated Applications are rendered as sources.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/core/model/index.js';
import { renderCluster } from '../../../src/core/pipeline/index.js';
import { expandApplicationSet } from '../../../src/core/render/appset-expand.js';
import { parse } from 'yaml';
import { readFixtureTree } from '../../support/fixtures.js';

const UPSTREAM = readFixtureTree('argo-cd-applicationset');
const EXAMPLES = 'applicationset/examples';

function repositoryWith(appset: string): Map<string, string> {
  const files = new Map(UPSTREAM);
  files.set('clusters/prod/appset.yaml', UPSTREAM.get(`${EXAMPLES}/${appset}`)!);
  return files;
}

function render(files: Map<string, string>, live: KubeObject[] = []) {
  return renderCluster(
    files,
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'argocd' },
    { live: { items: live, repository: 'argoproj/argo-cd' } },
  );
}

function sourcesOf(rendered: ReturnType<typeof render>) {
  return rendered.sources.map((result) => [result.source.id.name, result.source.path, result.scope]);
}

const isThisRepository = (url: string) => /argoproj\/argo-cd(\.git)?$/.test(url);

function expand(appset: string, files = UPSTREAM, live: KubeObject[] = []) {
  const object = parse(files.get(`${EXAMPLES}/${appset}`) ?? appset) as KubeObject;
  object.metadata = { ...object.metadata, namespace: 'argocd' };
  const expansion = expandApplicationSet(object, { files, live, isThisRepository });
  return expansion.ok ? expansion.applications : expansion.reason;
}

describe('the git directories generator', () => {
  it.each(['git-directories-example.yaml', 'git-directories-example-fasttemplate.yaml'])(
    '%s: one Application per directory, each rendered from its path',
    (example) => {
      const rendered = render(repositoryWith(`git-generator-directory/${example}`));
      const dir = `${EXAMPLES}/git-generator-directory/cluster-addons`;
      expect(sourcesOf(rendered)).toEqual([
        // Its kustomization's remote base is a part not rendered; a chart without Helm is not rendered.
        ['argo-workflows', `${dir}/argo-workflows`, 'rendered'],
        ['prometheus-operator', `${dir}/prometheus-operator`, 'not-rendered'],
      ]);
      const apps = expand(`git-generator-directory/${example}`) as KubeObject[];
      expect(apps.map((app) => [app.metadata.name, app.metadata.namespace, (app.spec as any).destination])).toEqual([
        ['argo-workflows', 'argocd', { server: 'https://kubernetes.default.svc', namespace: 'argo-workflows' }],
        [
          'prometheus-operator',
          'argocd',
          { server: 'https://kubernetes.default.svc', namespace: 'prometheus-operator' },
        ],
      ]);
    },
  );

  it('gives path[n], basenameNormalized and the goTemplate segments', () => {
    const files = new Map([['apps/My_App/cm.yaml', 'x: 1\n']]);
    const appset = (goTemplate: boolean, name: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: s}
spec:
  goTemplate: ${goTemplate}
  generators:
  - git: {repoURL: https://github.com/argoproj/argo-cd.git, directories: [{path: 'apps/*'}]}
  template:
    metadata: {name: '${name}'}
    spec: {source: {repoURL: https://github.com/argoproj/argo-cd.git, path: apps}}
`;
    const name = (text: string) => (expand(text, files) as KubeObject[])[0]!.metadata.name;
    expect(name(appset(false, '{{path[0]}}-{{path.basenameNormalized}}-{{ path.basename }}'))).toBe(
      'apps-my-app-My_App',
    );
    expect(
      name(appset(true, '{{ index .path.segments 0 }}-{{.path.basenameNormalized}}-{{ .path.basename | lower }}')),
    ).toBe('apps-my-app-my_app');
    // fasttemplate leaves a tag that names no parameter as written.
    expect(name(appset(false, '{{nothing}}'))).toBe('{{nothing}}');
    expect(name(appset(true, '{{ printf "%s-%d" .path.basename (len .path.segments) }}'))).toBe('My_App-2');
    expect(name(appset(true, '{{ regexReplaceAll "_" .path.basename "-" | lower }}'))).toBe('my-app');
    // A function Argo CD does not give templates is refused by name, never guessed.
    expect(expand(appset(true, '{{ expandenv .path.basename }}'), files)).toBe(
      'template "{{ expandenv .path.basename }}": function expandenv not supported',
    );
  });

  it('leaves out excluded and hidden directories', () => {
    const files = new Map([
      ['apps/a/cm.yaml', ''],
      ['apps/b/cm.yaml', ''],
      ['apps/.hidden/cm.yaml', ''],
    ]);
    const appset = `kind: ApplicationSet
spec:
  generators:
  - git: {repoURL: https://github.com/argoproj/argo-cd, directories: [{path: 'apps/*'}, {path: apps/b, exclude: true}]}
  template: {metadata: {name: '{{path.basename}}'}, spec: {}}
`;
    expect((expand(appset, files) as KubeObject[]).map((app) => app.metadata.name)).toEqual(['a']);
  });
});

describe('the git files generator', () => {
  it.each(['git-generator-files.yaml', 'git-generator-files-fasttemplate.yaml'])(
    '%s: one Application per config file, the guestbook kustomization rendered for each',
    (example) => {
      const rendered = render(repositoryWith(`git-generator-files-discovery/${example}`));
      const path = `${EXAMPLES}/git-generator-files-discovery/apps/guestbook`;
      expect(sourcesOf(rendered)).toEqual([
        ['engineering-dev-guestbook', path, 'rendered'],
        ['engineering-prod-guestbook', path, 'rendered'],
      ]);
      const keys = rendered.objects.map((d) => `${d.key.kind}/${d.key.namespace}/${d.key.name}`);
      expect(keys).toEqual(
        expect.arrayContaining([
          'Deployment/guestbook/kustomize-guestbook-ui',
          'Service/guestbook/kustomize-guestbook-ui',
        ]),
      );
      expect(rendered.notes.filter((note) => note.code === 'unsupported')).toEqual([]);
      // A pull request that changes only a config file is planned: the render read it.
      expect(rendered.filesRead).toContain(
        `${EXAMPLES}/git-generator-files-discovery/cluster-config/engineering/dev/config.json`,
      );
    },
  );
});

describe('the list, matrix and merge generators', () => {
  it('list: the element keys, each Application rendered from its own path', () => {
    const rendered = render(repositoryWith('list-generator/list-example.yaml'));
    expect(sourcesOf(rendered)).toEqual([
      ['engineering-dev-guestbook', `${EXAMPLES}/list-generator/guestbook/engineering-dev`, 'rendered'],
      ['engineering-prod-guestbook', `${EXAMPLES}/list-generator/guestbook/engineering-prod`, 'rendered'],
    ]);
  });

  it('matrix of git directories and a list: every pair, values of the list element included', () => {
    const apps = expand('matrix/list-and-git.yaml') as KubeObject[];
    expect(
      apps.map((app) => [app.metadata.name, (app.spec as any).project, (app.spec as any).destination.server]),
    ).toEqual([
      ['argo-workflows-engineering-dev', 'dev', 'https://1.2.3.4'],
      ['argo-workflows-engineering-prod', 'prod', 'https://2.4.6.8'],
      ['prometheus-operator-engineering-dev', 'dev', 'https://1.2.3.4'],
      ['prometheus-operator-engineering-prod', 'prod', 'https://2.4.6.8'],
    ]);
  });

  it('merge of two matrices, the local cluster the only one when the snapshot has no cluster Secret', () => {
    const apps = expand('merge/merge-two-matrixes.yaml') as KubeObject[];
    expect(
      apps.map((app) => [app.metadata.name, (app.spec as any).destination, (app.spec as any).source.helm.parameters]),
    ).toEqual([
      [
        'in-cluster-guestbook-staging',
        { server: 'https://kubernetes.default.svc', namespace: 'guestbook-non-prod' },
        [{ name: 'replicaCount', value: '2' }],
      ],
      [
        'in-cluster-guestbook-prod',
        { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
        [{ name: 'replicaCount', value: '2' }],
      ],
    ]);
  });
});

describe('what is not expanded is reported, never silent', () => {
  const appset = (generator: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: prs, namespace: argocd}
spec:
  goTemplate: true
  generators:
  - ${generator}
  template:
    metadata: {name: 'app-{{.name}}'}
    spec: {source: {repoURL: https://github.com/argoproj/argo-cd.git, path: apps}}
`;

  it.each([
    ['scmProvider: {github: {organization: acme}}', 'scmProvider generator is not expanded'],
    ['pullRequest: {github: {owner: acme, repo: app}}', 'pullRequest generator is not expanded'],
    ['plugin: {configMapRef: {name: p}}', 'plugin generator is not expanded'],
    [
      'git: {repoURL: https://github.com/acme/other.git, directories: [{path: "*"}]}',
      'git generator reads https://github.com/acme/other.git, another repository',
    ],
  ])('%s', (generator, reason) => {
    const files = new Map([['clusters/prod/appset.yaml', appset(generator)]]);
    const rendered = render(files);
    expect(rendered.notes.map((note) => note.message)).toEqual([`ApplicationSet argocd/prs: not rendered: ${reason}`]);
    expect(rendered.notRendered).toContainEqual(
      expect.objectContaining({ file: 'clusters/prod/appset.yaml', field: 'spec.generators', namespace: 'argocd' }),
    );
  });

  it("clusters: labels of the snapshot's cluster Secrets pick them; their names are Secret values, never guessed", () => {
    const secret = (name: string, env: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', env } },
    });
    const live = [secret('cluster-a', 'prod'), secret('cluster-b', 'staging')];
    const byLabel = (template: string) => `kind: ApplicationSet
spec:
  generators:
  - clusters: {selector: {matchLabels: {env: prod}}}
  template: {metadata: {name: '${template}'}, spec: {}}
`;
    expect(
      (expand(byLabel('app-{{metadata.labels.env}}'), UPSTREAM, live) as KubeObject[]).map((a) => a.metadata.name),
    ).toEqual(['app-prod']);
    expect(expand(byLabel('app-{{name}}'), UPSTREAM, live)).toBe(
      "clusters generator: a cluster's name, server and project are values of its Secret, which the snapshot never holds",
    );
  });
});

describe('cluster selectors, flatList and generator selectors', () => {
  const secret = (name: string, labels: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels } },
  });
  const live = [
    secret('a', { env: 'prod', region: 'eu' }),
    secret('b', { env: 'staging', region: 'us' }),
    secret('c', { env: 'dev' }),
  ];
  const names = (generator: string, template = '\'{{index .metadata.labels "env"}}\'', secrets = live) => {
    const appset = `kind: ApplicationSet
spec:
  goTemplate: true
  generators:
  - ${generator}
  template: {metadata: {name: ${template}}, spec: {}}
`;
    const apps = expand(appset, UPSTREAM, secrets);
    return typeof apps === 'string' ? apps : apps.map((app) => app.metadata.name);
  };

  it.each([
    ['{key: env, operator: In, values: [prod, dev]}', ['prod', 'dev']],
    ['{key: env, operator: NotIn, values: [prod]}', ['staging', 'dev']],
    // NotIn and DoesNotExist hold for a Secret without the label.
    ['{key: region, operator: NotIn, values: [eu]}', ['staging', 'dev']],
    ['{key: region, operator: Exists}', ['prod', 'staging']],
    ['{key: region, operator: DoesNotExist}', ['dev']],
  ])('matchExpressions %s', (expression, expected) => {
    expect(names(`clusters: {selector: {matchExpressions: [${expression}]}}`)).toEqual(expected);
  });

  it('matchLabels and matchExpressions must both hold; a malformed requirement is the reason', () => {
    const selector = '{matchLabels: {env: prod}, matchExpressions: [{key: region, operator: In, values: [us]}]}';
    expect(names(`clusters: {selector: ${selector}}`)).toEqual([]);
    expect(names('clusters: {selector: {matchExpressions: [{key: env, operator: In}]}}')).toBe(
      'clusters generator: selector: matchExpressions[0]: values must be non-empty for In',
    );
  });

  it('the local cluster is generated only without a selector and without cluster Secrets', () => {
    expect(names('clusters: {}', "'{{.name}}'", [])).toEqual(['in-cluster']);
    expect(names('clusters: {selector: {matchLabels: {env: prod}}}', "'{{.name}}'", [])).toEqual([]);
    expect(names('clusters: {selector: {matchExpressions: [{key: env, operator: Exists}]}}', "'x'", [])).toEqual([]);
  });

  it('flatList gives one parameter set listing every cluster', () => {
    const template = '\'{{range .clusters}}{{index .metadata.labels "env"}}-{{end}}all\'';
    expect(names('clusters: {flatList: true, selector: {matchLabels: {region: eu}}}', template)).toEqual(['prod-all']);
    expect(names('clusters: {flatList: true}', "'{{len .clusters}}'", [])).toEqual(['1']);
  });

  it("reads only the cluster Secrets of the Argo CD instance's namespace, not those of other namespaces", () => {
    const elsewhere: KubeObject[] = [
      { ...secret('d', { env: 'qa' }), metadata: { ...secret('d', { env: 'qa' }).metadata, namespace: 'team-a' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'e', namespace: 'argocd', labels: { env: 'dev2' } } },
    ];
    const clusters = [...live, ...elsewhere];
    expect(names('clusters: {selector: {matchLabels: {}}}', undefined, clusters)).toBe(
      'clusters generator: whether a cluster Secret stands for the local cluster is one of its values',
    );
    expect(
      names('clusters: {selector: {matchExpressions: [{key: env, operator: Exists}]}}', undefined, clusters),
    ).toEqual(['prod', 'staging', 'dev']);
    // Only Secrets of team-a: the ApplicationSet in argocd still reads argocd's, so the local cluster is not generated.
    expect(names('clusters: {}', "'{{.name}}'", elsewhere)).toEqual(['in-cluster']);
  });

  it('an ApplicationSet of another namespace reads the cluster Secrets of the instance that reconciles it', () => {
    const params = (namespaces: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argocd-cmd-params-cm', namespace: 'argocd' },
      data: { 'applicationsetcontroller.namespaces': namespaces },
    });
    const teamSecret = secret('t', { env: 'team' });
    teamSecret.metadata.namespace = 'team-a';
    const object = parse(`kind: ApplicationSet
metadata: {name: s, namespace: team-a}
spec:
  goTemplate: true
  generators: [{clusters: {selector: {matchExpressions: [{key: env, operator: Exists}]}}}]
  template: {metadata: {name: '{{index .metadata.labels "env"}}'}, spec: {}}
`) as KubeObject;
    const namesIn = (cluster: KubeObject[]) => {
      const expansion = expandApplicationSet(object, { files: UPSTREAM, live: cluster, isThisRepository });
      return expansion.ok ? expansion.applications.map((app) => app.metadata.name) : expansion.reason;
    };
    // The controller in argocd reconciles team-* (a glob) and /^team-/ (a regular expression).
    expect(namesIn([...live, teamSecret, params('team-*')])).toEqual(['prod', 'staging', 'dev']);
    expect(namesIn([...live, teamSecret, params('other, /^team-/')])).toEqual(['prod', 'staging', 'dev']);
    // No instance is known: the ApplicationSet's namespace is taken as the instance's.
    expect(namesIn([...live, teamSecret])).toEqual(['team']);
    expect(namesIn([...live, teamSecret, params('other')])).toBe(
      'no Argo CD instance of the snapshot reconciles ApplicationSets of namespace team-a (its own namespace, or ' +
        'argocd-cmd-params-cm applicationsetcontroller.namespaces), so none generates its Applications',
    );
  });

  it("a generator's selector keeps the parameter sets it matches", () => {
    const list = 'list: {elements: [{env: prod, tier: web}, {env: dev, tier: web}, {env: prod, tier: db}]}';
    const selected = (selector: string) => names(`${list}\n    selector: ${selector}`, "'{{.env}}-{{.tier}}'");
    expect(selected('{matchLabels: {env: prod}}')).toEqual(['prod-web', 'prod-db']);
    expect(selected('{matchExpressions: [{key: tier, operator: NotIn, values: [db]}]}')).toEqual([
      'prod-web',
      'dev-web',
    ]);
  });
});
