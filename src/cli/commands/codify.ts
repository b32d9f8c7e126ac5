// `driftback codify`: writes intentional live changes back into the repository's manifests, in
// place and byte-exact; `--dry-run` prints the unified diff instead and writes nothing.
import { parseArgs } from 'node:util';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { codifyEvaluated } from '../../core/pipeline/index.js';
import { isPartial, renderCodifyPatch, renderCodifyText } from '../../core/report/index.js';
import { CliError, printedHelp, type CliIO } from '../io.js';
import { INPUT_FLAGS } from '../flags.js';
import { evaluateRepository } from '../inputs.js';
import { EXIT_PARTIAL } from '../partial.js';

const HELP = `usage: driftback codify --repo <dir> --live <snapshot|file|dir> [flags]

Writes the intentional live changes (drift whose cause is in drift.causes) back into the
manifests, editing the YAML in place. Prints what was codified and what was only reported.
Exit status: 0 done, 2 an error (nothing is written then), 3 done with a partial result: part of the
cluster was not rendered (stderr says what and why), the rest was codified.

  --repo <dir>                  the repository checkout
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a
                                directory of them; repeat it with earlier snapshots first to apply the
                                persistence gate (drift.minSnapshots)
  --config <yml>                driftback config (default: <repo>/.github/driftback.yml when it exists)
  --cluster <name>              the cluster of the config whose path holds the manifests (default: the whole repo)
  --charts <dir>                chart archives as helm pull writes them (<name>-<version>.tgz), for charts
                                of Helm repositories (default: DRIFTBACK_CHARTS_DIR)
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --dry-run                     print a unified diff of the edits and write nothing`;

function parseFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      repo: { type: 'string' },
      ...INPUT_FLAGS,
      'dry-run': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.help) {
    if (!values.repo) throw new CliError('--repo <dir> is required (the repository checkout)');
    if (!values.live?.length) throw new CliError('--live <snapshot|file|dir> is required');
  }
  return values;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (printedHelp(io, flags.help, HELP)) return 0;
  // One working tree takes every change at once: the App's pull-request groups are one here.
  const { input, drift, evaluated, parts } = await evaluateRepository(io, flags, 'given');
  const { files, dir: repo } = input;
  const outcome = codifyEvaluated(drift, evaluated);
  if (!outcome.check.ok) {
    io.stdout.write(renderCodifyText(outcome));
    io.stderr.write(
      `driftback codify: the edits did not pass the self-check, nothing was written: ${outcome.check.reason}\n`,
    );
    return 2;
  }
  if (flags['dry-run']) {
    io.stdout.write(renderCodifyPatch(outcome.edits, files));
  } else {
    for (const [path, text] of outcome.edits) {
      const target = join(repo, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text, 'utf8');
    }
  }
  io.stdout.write(renderCodifyText(outcome));
  return isPartial(parts) ? EXIT_PARTIAL : 0;
}
