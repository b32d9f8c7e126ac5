// The `driftback / security (<cluster>)` check run on the default branch's HEAD: failing while the
// cluster holds security-relevant drift waiting for a person's decision. Written only when what it
// says changed (a new HEAD, other drift): the cluster state remembers what it last wrote. Once the
// drift is gone, a failing run on the same HEAD is turned to success; an older commit keeps its run.
import type { DiffResult } from '../../core/model/index.js';
import { contentHash, renderSecurityCheck, securityCheckName } from '../../core/report/index.js';
import { createOrUpdateCheckRun } from '../../github/index.js';
import type { GitHubContext } from './github-context.js';
import type { ClusterState } from './state.js';

type SecurityCheckState = NonNullable<ClusterState['securityCheck']>;

export async function publishSecurityCheck(
  ctx: GitHubContext,
  drift: DiffResult,
  previous: SecurityCheckState | undefined,
): Promise<SecurityCheckState | undefined> {
  const output = renderSecurityCheck(ctx.cluster, drift);
  const hash = contentHash(JSON.stringify(output));
  const sameHead = previous?.headSha === ctx.baseSha;
  if (output.conclusion === 'success' && !(sameHead && previous?.conclusion === 'failure')) return undefined;
  if (sameHead && previous?.hash === hash) return previous;
  const { conclusion } = output;
  await createOrUpdateCheckRun(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    name: securityCheckName(ctx.cluster),
    headSha: ctx.baseSha,
    conclusion,
    title: output.title,
    summary: output.summary,
    annotations: output.annotations,
  });
  ctx.log.info(
    { cluster: ctx.cluster, conclusion, annotations: output.annotations.length },
    'security check run written',
  );
  return { headSha: ctx.baseSha, conclusion: conclusion === 'failure' ? 'failure' : 'success', hash };
}
