// `driftback diff --format markdown`: security-relevant drift first (partial `risky-drift`), a summary
// line and a table of drifted fields. Model: models/drift-report.ts.
export const DRIFT_MARKDOWN = `### driftback diff

{{> risky-drift}}**{{text headline}}**{{#if snapshotAt}} (snapshot taken {{text snapshotAt}}){{/if}}
{{#if unlisted.length}}

Not listed by the snapshot (nothing is claimed missing for them): {{#each unlisted}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#if rows.length}}

| status | resource, field | Git → live | who, when |
| --- | --- | --- | --- |
{{#each rows}}
| {{celltext status}} | {{cellcode resource}}<br>{{#if field}}{{cellcode field}}{{else}}whole object{{/if}} | {{#if diff}}diff {{diff}} below{{else if (eq status "missing")}}declared → *absent*{{else if (eq status "extra")}}*absent* → present{{else}}{{value git}} → {{value live}}{{/if}} | {{celltext who}}{{#unless (eq who "not recorded")}} ({{celltext cause}}){{/unless}}<br>{{celltext when}} |
{{/each}}
{{> value-diffs}}
{{#if rowsOmitted}}

… and {{plural rowsOmitted "more row"}}.
{{/if}}
{{/if}}
{{#if reported.length}}
{{> reported}}
{{/if}}
{{#if suspensions.length}}

#### Suspended

Drift under a suspended source is not being reverted until it is resumed.

| source | since | by | to resume |
| --- | --- | --- | --- |
{{#each suspensions}}
| {{cellcode resource}}{{#if drift}}<br>{{plural drift "drifted object"}}{{/if}} | {{celltext since}} | {{celltext by}} | {{cellcode resume}} |
{{/each}}
{{/if}}
{{#if skipped.length}}

#### Not written as files

{{#each skipped}}
- {{code item}} ({{text kind}}): {{text message}}; {{#if compared}}compared, never written as a file{{else}}not compared: it cannot be told apart{{/if}}
{{/each}}
{{/if}}
`;
