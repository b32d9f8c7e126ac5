// Regenerates the expected outputs of test/fixtures/kustomize-oracle: each case's `input/` built by the
// real `kubectl kustomize`, its output written to `expected.yaml` (or, when kustomize refuses the
// build, its message to `expected-error.txt`). The tests compare driftback's render with these files,
// so they need no binary; run this after adding a case, with the kubectl the README names.
//
//   node scripts/kustomize-oracle.mjs [--kubectl PATH] [CASE…]
//   node scripts/kustomize-oracle.mjs --helm HELM3 [--kubectl PATH] [CASE…]
//
// With --helm, the cases of test/fixtures/kustomize-helm-oracle are built with `--enable-helm
// --helm-command HELM3` and the flags in a case's kubectl-flags.txt. kustomize 5.7.1 drives only Helm 3
// (`helm version -c --short`), so HELM3 is a Helm 3 binary (the README of those fixtures names one).
//
// PATH defaults to $KUBECTL, else the pinned kubectl `npm ci` extracts (.tools/bin/kubectl), else
// `kubectl` on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { kubectl: { type: 'string' }, helm: { type: 'string' } },
  allowPositionals: true,
});
const ROOT = new URL(`../test/fixtures/${values.helm ? 'kustomize-helm-oracle' : 'kustomize-oracle'}/`, import.meta.url)
  .pathname;
/** The build's flags: helm enabled (and the case's own flags) for the Helm cases. */
function flagsOf(dir) {
  if (!values.helm) return [];
  const file = join(dir, 'kubectl-flags.txt');
  const extra = existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean) : [];
  return ['--enable-helm', '--helm-command', values.helm, ...extra];
}
const pinned = new URL('../.tools/bin/kubectl', import.meta.url).pathname;
const kubectl = values.kubectl ?? process.env.KUBECTL ?? (existsSync(pinned) ? pinned : 'kubectl');
const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' });
console.log(version.trim());

const cases =
  positionals.length > 0
    ? positionals
    : readdirSync(ROOT, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
for (const name of cases) {
  const dir = join(ROOT, name);
  if (!existsSync(join(dir, 'input'))) throw new Error(`${dir}: no input/ directory`);
  rmSync(join(dir, 'expected.yaml'), { force: true });
  rmSync(join(dir, 'expected-error.txt'), { force: true });
  try {
    const out = execFileSync(kubectl, ['kustomize', join(dir, 'input'), ...flagsOf(dir)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writeFileSync(join(dir, 'expected.yaml'), out);
    console.log(`${name}: expected.yaml`);
  } catch (error) {
    // The message names the absolute input path: keep it relative so the file is the same on every machine.
    const message = String(error.stderr ?? error.message).replaceAll(join(dir, 'input'), 'input');
    writeFileSync(join(dir, 'expected-error.txt'), message);
    console.log(`${name}: expected-error.txt`);
  }
}
