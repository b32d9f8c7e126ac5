// `driftback diff --format markdown`: a summary line and a table of drifted fields. Model: models/drift-report.ts.
export const DRIFT_MARKDOWN = `### driftback diff

**{{text headline}}**{{#if snapshotAt}} (snapshot taken {{text snapshotAt}}){{/if}}
{{#if unlisted.length}}

Not listed by the snapshot (nothing is claimed missing for them): {{#each unlisted}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#if rows.length}}

| status | resource, field | Git → live | who, when |
| --- | --- | --- | --- |
{{#each rows}}
| {{text status}} | {{code resource}}<br>{{#if field}}{{code field}}{{else}}whole object{{/if}} | {{#if diff}}diff {{diff}} below{{else if (eq status "missing")}}declared → *absent*{{else if (eq status "extra")}}*absent* → present{{else}}{{value git}} → {{value live}}{{/if}} | {{text who}}{{#unless (eq who "not recorded")}} ({{text cause}}){{/unless}}<br>{{text when}} |
{{/each}}
{{> value-diffs}}
{{#if rowsOmitted}}

… and {{rowsOmitted}} more rows.
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
| {{code resource}}{{#if drift}}<br>{{drift}} drifted{{/if}} | {{text since}} | {{text by}} | {{code resume}} |
{{/each}}
{{/if}}
{{#if skipped.length}}

#### Not written as files

{{#each skipped}}
- {{code item}} ({{text kind}}): {{text message}}; {{#if compared}}compared, never written as a file{{else}}not compared: it cannot be told apart{{/if}}
{{/each}}
{{/if}}
`;
