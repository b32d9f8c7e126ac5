// Plan comment: a summary line per cluster, warnings first, then each resource in <details>.
export const PLAN_COMMENT = `### driftback plan{{#if meta.headSha}} for {{code meta.headSha}}{{/if}}

{{#each clusters}}
- **{{text summary}}**{{#if snapshot}} (snapshot {{text snapshot}}){{/if}}
{{/each}}
{{#if errors.length}}

#### Errors

{{#each errors}}
- {{text this}}
{{/each}}
{{/if}}
{{#if configChange}}

#### {{code configChange.file}} changes in this pull request

{{#if configChange.unplanned}}{{text configChange.unplanned}}{{else}}This plan uses the configuration of the base branch: a pull request is never planned under its own.{{/if}}{{#if configChange.invalid}} The proposed version has errors (above).{{else}}{{#if configChange.changes.length}} Once merged, the proposed version would change:

{{#each configChange.changes}}
- {{text this}}
{{/each}}
{{else}} Once merged, the proposed version changes nothing driftback reads.{{/if}}{{/if}}
{{/if}}
{{#each clusters}}
{{#if warnings.length}}

#### ⚠️ Warnings for {{text name}}

{{#each warnings}}
- **{{kind}}** {{#if resource}}{{code resource}}{{/if}}{{#if where}} ({{code where}}){{/if}}: {{text message}}
{{/each}}
{{#if warningsOmitted}}
- … and {{warningsOmitted}} more
{{/if}}
{{/if}}
{{#if resources.length}}

#### {{text name}}

{{#each resources}}
{{#if diff}}
<details><summary><code>{{symbol}}</code> {{text action}} {{text resource}}{{#if owners}} — {{text owners}}{{/if}}</summary>

{{block diff "diff"}}

</details>
{{else}}
- \`{{symbol}}\` {{text action}} {{code resource}}{{#if paths}}: {{#each paths}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}{{/if}}{{#if owners}} — {{text owners}}{{/if}}
{{/if}}
{{/each}}
{{#if resourcesOmitted}}
- … and {{resourcesOmitted}} more resources
{{/if}}
{{/if}}
{{#if kept.length}}

Kept (never pruned): {{#each kept}}{{code resource}} ({{text reason}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{/each}}
{{#if note}}

_{{text note}}_
{{/if}}
`;
