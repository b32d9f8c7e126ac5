// `driftback plan` on a pull request that changes a file under the path of an ApplicationSet's git
// directories generator: the Application the generator makes for that directory is rendered at head
// and at base, so the plan shows the change — not "no changes".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { appSetSnapshot, appSetTree, writeTree } from '../support/appset-repo.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = { goTemplateOptions: ['missingkey=error'] };
const base = writeTree(work, 'base', appSetTree({ web: 2 }, options));
writeTree(work, 'head', appSetTree({ web: 3 }, options));

// Live: what base applied, as the generated Application deployed it.
const applied = renderCluster(
  base,
  { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default' },
  { live: { items: [], repository: 'acme/gitops' } },
);
writeFileSync(join(work, 'live.json'), appSetSnapshot(base));

writeTree(
  work,
  'scm',
  appSetTree({ web: 3 }, { ...options, generators: [{ scmProvider: { github: { organization: 'acme' } } }] }),
);

describe('driftback plan with an ApplicationSet', () => {
  it('shows the change to a file under a git directories generator path', async () => {
    expect(applied.objects.map((d) => `${d.key.kind}/${d.key.namespace}/${d.key.name}`)).toContain(
      'Deployment/web/web',
    );
    const result = await runCli(
      ['plan', '--head', 'head', '--base', 'base', '--live', 'live.json', '--cluster', 'prod'],
      { cwd: work },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 0 to create, 1 to update, 0 to prune');
    expect(result.stdout).toContain('  ~ Deployment/web/web');
    expect(result.stdout).toContain('      ~ spec.replicas: 2 → 3');
    expect(result.code).toBe(1);
  });

  it('says an ApplicationSet whose generator is not expanded is not rendered, and why', async () => {
    const result = await runCli(['plan', '--head', 'scm', '--live', 'live.json', '--cluster', 'prod'], { cwd: work });
    expect(result.stdout + result.stderr).toContain(
      'clusters/prod/appset.yaml (spec.generators): not rendered: ApplicationSet argocd/apps: scmProvider generator is not expanded',
    );
  });
});
