// Pieces several templates share, registered as Handlebars partials (`{{> value-diffs}}`); a
// repository's template can use them too.

/** The numbered YAML diffs of values too long for a table (`diffs` of a change table's model). */
export const VALUE_DIFFS = `{{#each diffs}}

<details><summary>Diff {{number}}: <code>{{html title}}</code></summary>

{{block diff "diff"}}

</details>
{{/each}}
`;

/** The emergency procedure a drift PR opens with (`emergency` of the drift PR's model), each followed by a blank line. */
export const EMERGENCY = `{{#each emergency}}{{markdown}}

{{/each}}`;

/** What a person can do about security-relevant drift, one paragraph. */
export const RISKY_ADVICE = `This may be a hotfix or tampering: the manager is what the client said it was, so check the API server's audit log for who made it. driftback never codifies it unasked. Revert it, or, to keep it, add a \`drift.allowRisky\` entry with the reason.
`;

/**
 * Security-relevant drift (`risky` of the model), shown first: what it is, who made it and when, and
 * what a person can do. Renders nothing when there is none.
 */
export const RISKY_DRIFT = `{{#if risky.length}}### 🚨 Security-relevant drift: needs a person's decision

| object, field | who, when | why |
| --- | --- | --- |
{{#each risky}}
| {{cellcode resource}}<br>{{#if field}}{{cellcode field}}{{else}}whole object{{/if}} | {{celltext who}}<br>{{celltext when}} | {{#each risks}}**{{celltext code}}**: {{celltext why}}{{#unless @last}}<br>{{/unless}}{{/each}} |
{{/each}}
{{#if riskyOmitted}}

… and {{riskyOmitted}} more.
{{/if}}

{{> risky-advice}}

{{/if}}`;

/** The "Reported, not codified" table (`reported` of a drift model): who made each entry, when, the cause, and why. */
export const REPORTED = `
#### Reported, not codified

| object, field | who, when | why |
| --- | --- | --- |
{{#each reported}}
| {{cellcode resource}}<br>{{#if field}}{{cellcode field}}{{else}}whole object{{/if}} | {{celltext who}}{{#if cause}} ({{celltext cause}}){{/if}}<br>{{celltext when}} | {{cellprose reason}} |
{{/each}}
`;

/**
 * People's changes their GitOps controller is about to undo (`undo` of the model: one group per
 * controller), each with the remedy in the emergency procedure's order. Renders nothing when there is none.
 */
export const UNDO = `{{#each undo}}#### ⏳ {{text by}} will undo these changes{{#if (eq what "undo")}}{{#if dueAt}} by ~{{text dueAt}}{{/if}}{{else}} at the next commit of its source{{/if}}

| object, field | who, when | then |
| --- | --- | --- |
{{#each rows}}
| {{cellcode resource}}<br>{{#if field}}{{cellcode field}}{{else}}whole object{{/if}} | {{celltext who}}<br>{{celltext when}} | {{celltext effect}} |
{{/each}}
{{#if omitted}}

… and {{omitted}} more.
{{/if}}
{{#if overdue}}

It should have by now and has not: {{text by}} is not reconciling.
{{/if}}

{{prose remedy}}

{{/each}}`;

/** Names of a condensed line (`names`, `namesOmitted`): runs as ranges, then how many more. */
export const NAMES = `{{#each names}}{{code first}}{{#if last}} … {{code last}}{{/if}}{{#unless @last}}, {{/unless}}{{/each}}{{#if namesOmitted}} and {{namesOmitted}} more{{/if}}`;

export const PARTIALS = {
  names: NAMES,
  'value-diffs': VALUE_DIFFS,
  emergency: EMERGENCY,
  reported: REPORTED,
  'risky-drift': RISKY_DRIFT,
  undo: UNDO,
  'risky-advice': RISKY_ADVICE,
} as const;
