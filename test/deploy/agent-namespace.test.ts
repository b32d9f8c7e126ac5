// deploy/agent installed in another namespace: rendered by the pinned kubectl 1.35 (kustomize 5.7.1) and by
// driftback's own renderer, with the overlay docs/agent.md "In another namespace" gives. kustomize's namespace
// transformer leaves a ClusterRoleBinding subject outside `default` alone (api/filters/namespace,
// SetRoleBindingSubjects: defaultOnly), so the documented replacements are what binds the ServiceAccount there.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedKubectl } from '../support/tools.js';

/** The overlay docs/agent.md documents (the first yaml block of "In another namespace"). */
function documentedOverlay(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs/agent.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### In another namespace'));
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
}

const work = mkdtempSync(join(tmpdir(), 'driftback-agent-ns-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function overlayDir(name: string, text: string): string {
  const root = join(work, name);
  cpSync(join(REPO_ROOT, 'deploy'), join(root, 'deploy'), { recursive: true });
  mkdirSync(join(root, 'my-agent'));
  writeFileSync(join(root, 'my-agent', 'kustomization.yaml'), text);
  return root;
}

function kubectlKustomize(root: string): KubeObject[] {
  const out = execFileSync(pinnedKubectl(), ['kustomize', join(root, 'my-agent')], { encoding: 'utf8' });
  return parseAllDocuments(out).map((doc) => doc.toJS() as KubeObject);
}

function ownRender(root: string): KubeObject[] {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  const result = renderManifests(files, 'my-agent');
  expect(result.errors).toEqual([]);
  return result.objects.map((desired) => desired.object);
}

const subjectNamespace = (objects: KubeObject[]): unknown =>
  (objects.find((o) => o.kind === 'ClusterRoleBinding')!.subjects as { namespace?: string }[])[0]!.namespace;
const namespaces = (objects: KubeObject[]): string[] =>
  [
    ...new Set(
      objects.flatMap((o) =>
        o.kind === 'ClusterRoleBinding' || o.kind === 'ClusterRole'
          ? []
          : [o.metadata.namespace ?? o.metadata.name ?? ''],
      ),
    ),
  ].sort();

describe('deploy/agent with a namespace override', () => {
  const documented = overlayDir('documented', documentedOverlay());
  const bare = overlayDir('bare', 'namespace: platform-tools\nresources: [../deploy/agent]\n');

  it.each([
    ['kubectl kustomize', kubectlKustomize],
    ["driftback's renderer", ownRender],
  ])('%s: the documented overlay binds the ServiceAccount where it runs', (_, render) => {
    const objects = render(documented);
    expect(subjectNamespace(objects)).toBe('platform-tools');
    expect(namespaces(objects)).toEqual(['platform-tools']);
  });

  it('kubectl kustomize without the replacements leaves the subject in driftback (why they are documented)', () => {
    expect(subjectNamespace(kubectlKustomize(bare))).toBe('driftback');
  });
});
