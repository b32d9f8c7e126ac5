// Drift PR body: security-relevant drift held for a person's decision (partial `risky-drift`), the
// changes the controller is about to undo (partial `undo`), an emergency PR's procedure (partial
// `emergency`), the summary line, the GitOps sources the changes come from, then what is codified per
// resource, new objects, what was only reported and why, and what merging or closing means (for an
// emergency PR: never a close that loses the fix). Model: models/drift-pull-request.ts.
export const DRIFT_PULL_REQUEST = `{{> risky-drift}}{{> undo}}{{> emergency}}**{{text headline}}.**
{{#if sources.length}}

From {{#if (eq sources.length 1)}}this source{{else}}these sources{{/if}}:
{{#each sources}}
- {{code name}}: {{text amount}}{{#if appliedRevision}}, applied {{code appliedRevision}}{{/if}}{{#if suspended}}{{#unless ../emergency.length}} (suspended){{/unless}}{{/if}}
{{/each}}
{{/if}}

Someone changed these objects in {{code cluster}} directly{{#if seenIn}} ({{text seenIn}}){{else}}, and the changes persisted{{/if}}. This pull request writes the live values into the manifests{{#if snapshot.id}} (snapshot {{code snapshot.id}}, taken {{text snapshot.takenAt}}){{/if}}.{{#if filesUnder}} Files are under {{code filesUnder}}.{{/if}}
{{#each resources}}

#### {{code resource}}

| field: Git → live | who, when | file |
| --- | --- | --- |
{{#each rows}}
| {{#if field}}{{cellcode field}}{{else}}whole object{{/if}}<br>{{#if diff}}diff {{diff}} below{{else}}{{value git}} → {{value live}}{{/if}}{{#if chartValue}}<br>{{cellcode chartValue.value}} in {{cellcode chartValue.where}}{{#if chartValue.object}} of {{celltext chartValue.object}}{{/if}} (chart value of {{celltext chartValue.source}}){{/if}}{{#if allowed}}<br>⚠️ {{celltext allowed}}{{/if}} | {{celltext who}}<br>{{celltext when}} | {{cellcode file}} |
{{/each}}
{{> value-diffs}}
{{/each}}
{{#if created.length}}

#### New objects, written as new manifests

| object | created by, when | file |
| --- | --- | --- |
{{#each created}}
| {{cellcode resource}} | {{celltext who}}<br>{{celltext when}} | {{cellcode file}}{{#if note}}<br>{{cellprose note}}{{/if}} |
{{/each}}
{{/if}}
{{#if codifiedOmitted}}

… and {{plural codifiedOmitted "more change"}}: see the pull request's files.
{{/if}}
{{#unless summary.changes}}

Nothing is codified in this update.
{{/unless}}
{{#if reported.length}}
{{> reported}}
{{#if reportedOmitted}}

… and {{reportedOmitted}} more.
{{/if}}
{{/if}}

#### Merge or close

{{#if emergency.length}}
- **Merge**, then resume: Git agrees with the cluster, and the controller keeps the fix once it reconciles again.
- **Do not close** this pull request while the cluster needs the fix: the resumed controller applies Git as it is and reverts the fix. Close it only when the fix is no longer wanted; the decision is remembered and this drift is not proposed again.
{{else}}
- **Merge**: Git agrees with the cluster; the GitOps controller keeps the live values.
- **Close** without merging: the decision is remembered, this drift is not proposed again, and the controller's next apply restores what Git says.
{{/if}}
`;
