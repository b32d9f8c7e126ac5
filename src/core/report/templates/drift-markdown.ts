// `driftback diff --format markdown`: a summary line and a table of drifted fields per resource.
export const DRIFT_MARKDOWN = `### driftback diff

**{{summary.modified}} modified, {{summary.missing}} missing, {{summary.extra}} extra, {{summary.inSync}} in sync**{{#if summary.ignored}}, {{summary.ignored}} ignored{{/if}}{{#if summary.conflicts}}, {{summary.conflicts}} conflicts{{/if}}
{{#if unlisted.length}}

Not listed by the snapshot (nothing is claimed missing for them): {{#each unlisted}}{{code this}}{{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#if rows.length}}

| status | resource | field | Git | live | who | when | cause |
| --- | --- | --- | --- | --- | --- | --- | --- |
{{#each rows}}
| {{text status}} | {{text resource}} | {{text field}} | {{text git}} | {{text live}} | {{text who}} | {{text when}} | {{text cause}} |
{{/each}}
{{#if rowsOmitted}}

… and {{rowsOmitted}} more rows.
{{/if}}
{{/if}}
`;
