// The dashboard issue body: security-relevant drift of every cluster first, then one section per
// cluster, modelled on Renovate's Dependency Dashboard. Model: models/dashboard.ts.
export const DASHBOARD = `This issue lists what driftback sees in each cluster. It is updated in place; do not edit it.

{{#each clusters}}
- **{{text name}}**: {{text status}}{{#if pullRequests.length}}; drift pull {{#if (eq pullRequests.length 1)}}request{{else}}requests{{/if}} {{#each pullRequests}}#{{number}}{{#unless @last}}, {{/unless}}{{/each}}{{/if}}
{{/each}}
{{#if risky.length}}

### 🚨 Security-relevant drift: needs a person's decision

| cluster | object, field | who, when | why |
| --- | --- | --- | --- |
{{#each risky}}
| {{celltext cluster}} | {{cellcode resource}}<br>{{#if field}}{{cellcode field}}{{else}}whole object{{/if}} | {{celltext who}}<br>{{celltext when}} | {{#each risks}}**{{celltext code}}**: {{celltext why}}{{#unless @last}}<br>{{/unless}}{{/each}} |
{{/each}}
{{#if riskyOmitted}}

… and {{riskyOmitted}} more.
{{/if}}

{{> risky-advice}}
{{/if}}
{{#if configErrors.length}}

### ❌ Configuration errors

{{#each configErrors}}
- {{code where}}: {{text message}}
{{/each}}
{{/if}}
{{#each clusters}}

### {{text name}}

- Snapshots: {{#if snapshotAge}}{{#if stale}}⚠️ **not reporting**: last one taken {{text capturedAt}} (staleAfter {{text staleAfter}}){{else}}on time (staleAfter {{text staleAfter}}){{/if}}{{else}}⚠️ **none received yet**{{/if}}
- Resources in scope: {{#if snapshotAge}}{{resources}}{{else}}unknown (no snapshot yet){{/if}}
- Drift: {{#if snapshotAge}}{{#if drift}}{{text drift.amount}} ({{text drift.causes}}){{else}}none{{/if}}{{#if stale}} (as of {{text capturedAt}}){{/if}}{{else}}unknown (no snapshot yet){{/if}}
{{#each sources}}
  - {{text this}}
{{/each}}
- Open drift pull requests: {{#each pullRequests}}#{{number}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}
{{#each undone}}
- ↩️ A person's change was undone by {{text by}} {{#if exact}}at ~{{else}}before {{/if}}{{text at}}: {{code resource}} {{code field}} ({{text who}}, {{text when}})
{{/each}}
{{#if undo.length}}

{{> undo}}
{{/if}}
{{#if autoscaled.length}}

**HPA and Git both set replicas ({{autoscaled.length}})**

{{#each autoscaled}}
- {{code resource}}{{#if where}} ({{code where}}){{/if}}: {{prose message}}
{{/each}}
{{/if}}
{{#if conflicts.length}}

<details><summary>Conflicts ({{conflicts.length}})</summary>

{{#each conflicts}}
- {{code resource}} {{code field}}: Git and {{code manager}} both set it
{{/each}}

</details>
{{/if}}
{{#if notChecked.length}}

<details><summary>Not checked ({{notChecked.length}})</summary>

{{#each notChecked}}
- {{text this}}
{{/each}}

</details>
{{/if}}
{{#if ignored.length}}

<details><summary>Ignored ({{ignoredTotal}})</summary>

{{#each ignored}}
- {{count}} × {{text reason}}
{{/each}}

</details>
{{/if}}
{{#if decisions.length}}

<details><summary>Decided by comment ({{decisionsTotal}})</summary>

{{#each decisions}}
- {{code item}}: {{text verb}} by {{code by}} at {{text when}} on #{{pullRequest}}: {{text reason}}
{{/each}}
{{#if decisionsOmitted}}
- … and {{decisionsOmitted}} older: \`/driftback explain <object>\` shows them
{{/if}}

</details>
{{/if}}
{{#if reported.length}}

<details><summary>Reported, not codified ({{reported.length}})</summary>

{{#each reported}}
- {{code resource}}{{#if field}} {{code field}}{{/if}}{{#if who}} by {{code who}}{{/if}}{{#if when}} at {{text when}}{{/if}}: {{prose reason}}
{{/each}}

</details>
{{/if}}
{{#if degraded.length}}

<details><summary>Degraded resources ({{degraded.length}})</summary>

{{#each degraded}}
- {{code resource}}{{#if message}}: {{text message}}{{/if}}
{{/each}}

</details>
{{/if}}
{{#if suspended.length}}

**Suspended ({{suspended.length}})**: nothing merged for these deploys, and hand changes stay, until they are resumed.

{{#each suspended}}
- {{code resource}}{{#if since}} since {{text since}}{{/if}}
{{~#if who}}, by {{code who}}{{/if}}{{#if pullRequest}}, emergency PR #{{pullRequest}}{{/if}}
{{/each}}
{{/if}}
{{#if skipped.length}}

<details><summary>Not written as files ({{skipped.length}})</summary>

{{#each skipped}}
- {{code item}} ({{text kind}}): {{text message}}; {{#if compared}}compared, never written as a file{{else}}not compared: it cannot be told apart{{/if}}
{{/each}}

</details>
{{/if}}
{{#if outOfSync.length}}

<details><summary>Out of sync, not failing ({{outOfSync.length}})</summary>

{{#each outOfSync}}
- {{code this}}: Argo CD reports OutOfSync: the live state differs from Git by the drift listed here
{{/each}}

</details>
{{/if}}
{{#if notReconciling.length}}

<details><summary>GitOps controllers not reconciling ({{notReconciling.length}})</summary>

{{#each notReconciling}}
- {{code resource}}: {{text reason}}
{{/each}}

</details>
{{/if}}
{{/each}}
`;
