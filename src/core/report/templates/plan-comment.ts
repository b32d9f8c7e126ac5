// Plan comment: per cluster a one-line summary, the warnings, then each resource in <details> with a
// YAML diff (Atlantis puts its plan output in <details> too). Model: models/plan-comment.ts. When the
// diffs are left out, a note says so under the first summary and the objects are condensed into lines
// of one kind, operation and file; any list over 20 items is folded behind a summary that counts it.
export const PLAN_COMMENT = `### driftback plan{{#if headSha}} for {{code headSha}}{{/if}}
{{#if errors.length}}

#### ❌ Errors

{{#if (long errors)}}
<details><summary>{{errors.length}} errors</summary>

{{/if}}
{{#each errors}}
- {{text this}}
{{/each}}
{{#if (long errors)}}

</details>
{{/if}}
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
{{#if @first}}{{#if ../note}}

_{{prose ../note}}_
{{/if}}{{/if}}
{{#if sources.length}}

{{#if (long sources)}}<details><summary>Sources: {{sources.length}}</summary>{{else}}Sources:{{/if}}

{{#each sources}}
- {{text this}}
{{/each}}
{{#if (long sources)}}

</details>
{{/if}}
{{/if}}
{{#each suspensions}}

⏸️ {{code resource}} {{#if since}}has been suspended since {{text since}}{{else}}is suspended{{/if}}{{#if by}} by {{code by}}{{/if}}: drift under it is not being reverted; {{text resumeText}}: {{code resume}}
{{/each}}
{{#if warnings.length}}

Warnings:

{{#if foldWarnings}}
{{#each warningDigest}}
- ⚠️ **{{text title}}** ({{count}}){{#if names.length}}: {{> names}}{{/if}}
{{/each}}

<details><summary>The {{counts.warnings}} warnings, each with what to do</summary>

{{/if}}
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
- … and {{plural warningsOmitted "more warning"}}
{{/if}}
{{#if foldWarnings}}

</details>
{{/if}}
{{/if}}
{{#if condensed}}
{{#if groups.length}}

{{#if (long groups)}}
<details><summary>{{counts.objects}} objects{{#if groupsOmitted.lines}}: the first {{groups.length}} lines{{else}} on {{groups.length}} lines{{/if}}</summary>

{{/if}}
{{#each groups}}
- \`{{symbol}}\` {{action}} {{#if resource}}{{code resource}}{{else}}{{count}} {{text kind}} objects ({{> names}}){{/if}}{{#if fields.length}}: {{#each fields}}{{code name}}{{#unless (eq objects ../count)}} ({{objects}} of {{../count}}){{/unless}}{{#unless @last}}, {{/unless}}{{/each}}{{#if fieldsOmitted}} and {{plural fieldsOmitted "more field"}}{{/if}}{{/if}}{{#if deletesData}} — **deletes data**{{#if where}}, {{prose where}}{{/if}}{{else}}{{#if where}} — {{prose where}}{{/if}}{{/if}}
{{/each}}
{{#if groupsOmitted.lines}}
- … and {{plural groupsOmitted.objects "more object"}} on {{plural groupsOmitted.lines "more line"}}
{{/if}}
{{#if (long groups)}}

</details>
{{/if}}
{{/if}}
{{else if resources.length}}

{{#if (long resources)}}
<details><summary>Diffs of {{resources.length}} objects: {{counts.prune}} to prune, {{counts.create}} to create, {{counts.update}} to update</summary>

{{/if}}
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
- … and {{plural resourcesOmitted "more resource"}}
{{/if}}
{{#if (long resources)}}

</details>
{{/if}}
{{/if}}
{{#if kept.length}}

{{#if (long kept)}}
<details><summary>Kept (never pruned): {{kept.length}} objects</summary>

{{#each kept}}
- {{code resource}} ({{text reason}})
{{/each}}

</details>
{{else}}
Kept (never pruned): {{#each kept}}{{code resource}} ({{text reason}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{/if}}
{{#if hooks.length}}

{{#if (long hooks)}}
<details><summary>Hooks each sync runs (not desired state): {{hooks.length}}</summary>

{{#each hooks}}
- {{code resource}} ({{text what}}: {{text runs}})
{{/each}}

</details>
{{else}}
Hooks each sync runs (not desired state): {{#each hooks}}{{code resource}} ({{text what}}: {{text runs}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{/if}}
{{#if deleteHooks.length}}

Hooks that run when the plan deletes their {{text deleteHookOwners}} (not desired state): {{#each deleteHooks}}{{code resource}} ({{text what}} of {{text owner}} {{code application}}: {{text runs}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#if generated.length}}

Created on every sync (generateName; never compared, never pruned): {{#each generated}}{{code resource}} ({{code file}}{{#if made.length}}; kept: {{#each made}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}{{/if}}){{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{/each}}
{{#unless clusters.length}}
{{#if note}}

_{{prose note}}_
{{/if}}
{{/unless}}
`;
