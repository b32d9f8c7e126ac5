// Alert issue bodies: a cluster that stopped reporting, a GitOps controller that stopped applying.
export const STALE_ALERT = `driftback has received no snapshot from {{code cluster}} for {{text age}} (staleAfter is {{text staleAfter}}).
{{#if capturedAt}}

The last snapshot was taken {{text capturedAt}}.
{{else}}

No snapshot has been received yet.
{{/if}}

Until snapshots resume, plans on pull requests are made against old state. Check that the agent CronJob runs in the cluster (\`kubectl get cronjob -A -l app.kubernetes.io/name=driftback-agent\`), that its last Job succeeded, and that its upload token is for this repository and cluster.

This issue closes itself when snapshots resume.
`;

export const NOT_RECONCILING_ALERT = `{{code resource}} in {{code cluster}} {{text reason}}.

Changes merged to Git are not reaching the cluster while this lasts.{{#if suspended}} Resume it{{#if resumeCommand}} ({{code resumeCommand}}){{/if}} when the reason for suspending it is gone.{{else}} Look at its events and conditions{{#if describeCommand}} ({{code describeCommand}}){{/if}}.{{/if}}

This issue closes itself when it reconciles again.
`;
