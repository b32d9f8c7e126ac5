// `driftback diff` on the tampering scenario (test/fixtures/controllers/tampering), as a person runs it
// against a snapshot: risky drift comes first in every format, each risk with its stable code, and the
// ordinary timeline prints none. Golden text output.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonDiffDocument } from '../../src/core/report/index.js';
import { CONTROLLER_SCENARIOS } from '../support/controllers.js';
import { expectGolden } from './golden.js';
import { runCli } from './run-cli.js';

const SCENARIO = join(CONTROLLER_SCENARIOS, 'tampering');
const diff = (snapshot: string, ...args: string[]) =>
  runCli(
    ['diff', '--config', 'repo/.github/driftback.yml', '--cluster', 'kind', '--live', `live/${snapshot}.json`, ...args],
    {
      cwd: SCENARIO,
    },
  );

describe('driftback diff: risky drift first', () => {
  it('text: the block a person reads first, then the diffs with the codes of each change', async () => {
    const { code, stdout } = await diff('tampering');
    expect(code).toBe(1);
    expect(stdout.startsWith("Security-relevant drift: needs a person's decision")).toBe(true);
    expectGolden('risky-drift.txt', stdout);
  });

  it('json: `risky` first, `risk: [{code, why}]` on each change and on an object made by hand', async () => {
    const { stdout } = await diff('tampering', '--format', 'json');
    const document = JSON.parse(stdout) as JsonDiffDocument;
    expect(Object.keys(document)[0]).toBe('risky');
    expect(document.risky!.map((item) => `${item.id.kind}/${item.id.name} ${item.path ?? ''}`)).toContain(
      'Deployment/worker /spec/template/spec/containers/0/image',
    );
    const worker = document.resources.find((r) => r.id.name === 'worker')!;
    expect(worker.changes[0]!.risk!.map((risk) => risk.code)).toEqual(['image-registry', 'unknown-manager']);
    const binding = document.resources.find((r) => r.id.name === 'everyone-admin')!;
    expect(binding).toMatchObject({ status: 'extra', risk: [{ code: 'rbac-escalation' }] });
    // A Pod run by hand is reported (never codified) with its risk.
    expect(document.reported!.find((entry) => entry.id.name === 'node-shell')!.risk).toEqual([
      {
        code: 'privilege',
        why: 'containers[node-shell].securityContext.privileged: true gives the container every device and capability of the node: root in it is root on the node',
      },
    ]);
  });

  it('markdown opens with the risky table', async () => {
    const { stdout } = await diff('tampering', '--format', 'markdown');
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      '### driftback diff',
      '',
      "### 🚨 Security-relevant drift: needs a person's decision",
    ]);
  });

  it('the ordinary timeline prints no risk at all', async () => {
    const { code, stdout } = await diff('ordinary', '--format', 'json');
    expect(code).toBe(1);
    expect(stdout).not.toContain('"risk');
  });
});
