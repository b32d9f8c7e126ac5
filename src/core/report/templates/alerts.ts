// Alert issue bodies: a cluster that stopped reporting, a GitOps controller that stopped applying, a
// source left suspended past emergency.resumeWithin, an emergency fix undone after the resume.
export const STALE_ALERT = `driftback has received no snapshot from {{code cluster}} for {{text age}} (staleAfter is {{text staleAfter}}).
{{#if capturedAt}}

The last snapshot was taken {{text capturedAt}}.
{{else}}

No snapshot has been received yet.
{{/if}}

Until snapshots resume, plans on pull requests are made against old state. Check that the agent CronJob runs in the cluster (\`kubectl get cronjob -A -l app.kubernetes.io/name=driftback-agent\`), that its last Job succeeded, and that its upload token is for this repository and cluster.

driftback closes this issue when snapshots resume.
`;

export const NOT_RECONCILING_ALERT = `{{code resource}} in {{code cluster}} {{text reason}}.

Changes merged to Git are not reaching the cluster while this lasts.{{#if suspended}} Resume it{{#if resumeCommand}} ({{code resumeCommand}}){{/if}} when the reason for suspending it is gone.{{else}} Look at its events and conditions{{#if describeCommand}} ({{code describeCommand}}){{/if}}.{{/if}}
{{#if since}}

{{#if pending}}Commits waiting since {{text since}}:

{{#each pending}}
- {{code sha}} {{text message}}
{{/each}}
{{else}}Not running since {{text since}}.
{{/if}}
{{/if}}
{{#if commands}}

To bring it back:

{{#each commands}}
- {{code this}}
{{/each}}
{{/if}}

driftback closes this issue when it reconciles again.
`;

export const SUSPENDED_ALERT = `{{code resource}} in {{code cluster}} has been suspended for {{text age}}, longer than \`emergency.resumeWithin\` ({{text resumeWithin}}). {{#if who}}{{code who}} suspended it{{else}}Nothing records who suspended it{{/if}} at {{text since}}.

A suspension nobody remembers is drift with the safety net switched off: whatever is merged for this source never deploys, and whatever is changed by hand stays.

{{#if pullRequest}}{{#if merged}}Its emergency pull request #{{pullRequest}} is merged: resume the source so the merge deploys.{{else}}Its emergency pull request is #{{pullRequest}}: merge it, then resume.{{/if}}{{else}}There is no drift under it and no pull request waiting on it: a forgotten suspension. Resume it, or say why it must stay.{{/if}}

To resume: {{code resumeCommand}}

driftback closes this issue when a snapshot shows the source reconciling again.
`;

export const FIX_UNDONE_ALERT = `{{#if verifiedAt}}The emergency fix of #{{pullRequest}} under {{code source}} in {{code cluster}} was verified {{text verifiedAt}}; since then the cluster no longer holds it, while Git still does:

{{#each changes}}
- {{code resource}} {{code field}}: {{code value}} → {{code now}}{{#if manager}}, written by {{code manager}}{{/if}}{{#if time}} at {{text time}}{{/if}}
{{/each}}

With reconciliation on, the controller may write the merged value back at its next sync. If the new value is meant, make it in Git; if not, find what wrote it (a rollback, a pipeline, a hand edit) before it happens again.
{{else}}The emergency fix made under {{code source}} in {{code cluster}} was undone after the source was resumed (seen {{text resumedAt}}).

{{#each changes}}
- {{code resource}} {{code field}}: the fix set {{code value}}; the cluster no longer has it
{{/each}}

{{#if merged}}The pull request was merged, but the cluster does not hold its value: the drift is back or the controller applied an older revision.{{else}}The source was resumed before its emergency pull request{{#if pullRequest}} (#{{pullRequest}}){{/if}} was merged, so the controller applied Git as it was and reverted the fix.{{/if}}

If the fix is still needed, make it in Git (merge the pull request, or a new one) and let the controller apply it.
{{/if}}

driftback closes this issue when a snapshot shows the fix in the cluster again.
`;
