// Plan comment: per cluster a one-line summary, the warnings, then each resource in <details> with a
// YAML diff (Atlantis puts its plan output in <details> too). Model: models/plan-comment.ts.
export const PLAN_COMMENT = `### driftback plan{{#if headSha}} for {{code headSha}}{{/if}}
{{#if errors.length}}

#### ❌ Errors

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

#### {{text name}}

**{{text headline}}.**{{#if snapshot}} Planned against the snapshot taken {{text snapshot}}.{{/if}}
{{#if sources.length}}

Sources:

{{#each sources}}
- {{text this}}
{{/each}}
{{/if}}
{{#each suspensions}}

⏸️ {{code resource}} {{#if since}}has been suspended since {{text since}}{{else}}is suspended{{/if}}{{#if by}} by {{code by}}{{/if}}: drift under it is not being reverted; {{text resumeText}}: {{code resume}}
{{/each}}
{{#if warnings.length}}

Warnings:

{{#each warnings}}
- ⚠️ **{{text title}}**{{#if resource}} {{code resource}}{{/if}}{{#if where}} ({{code where}}){{/if}}: {{prose message}}{{#if objects.length}}{{#unless foldObjects}} Not shown: {{#each objects}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}.{{/unless}}{{/if}}
{{#each fields}}
  - {{#if where}}{{code where}}: {{/if}}{{prose message}}
{{/each}}
{{#if foldObjects}}
  <details><summary>{{plural objects.length "object"}} not shown</summary>

  {{#each objects}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}

  </details>
{{/if}}
{{/each}}
{{#if warningsOmitted}}
- … and {{warningsOmitted}} more warnings
{{/if}}
{{/if}}
{{#if resources.length}}

{{#each resources}}
{{#if diff}}
<details><summary><code>{{symbol}}</code> {{action}} <code>{{html resource}}</code>{{#if who}} — {{prosehtml who}}{{/if}}</summary>

{{block diff "diff"}}

</details>
{{else}}
- \`{{symbol}}\` {{action}} {{code resource}}{{#if fields.length}}: {{#each fields}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}{{/if}}{{#if who}} — {{prose who}}{{/if}}
{{/if}}
{{/each}}
{{#if resourcesOmitted}}
- … and {{resourcesOmitted}} more resources
{{/if}}
{{/if}}
{{#if kept.length}}

Kept (never pruned): {{#each kept}}{{code resource}} ({{text reason}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#if hooks.length}}

Hooks each sync runs (not desired state): {{#each hooks}}{{code resource}} ({{text what}}: {{text runs}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{/each}}
{{#if note}}

_{{prose note}}_
{{/if}}
`;
