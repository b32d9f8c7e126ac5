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

/** The "Reported, not codified" table (`reported` of a drift model): who made each entry, when, the cause, and why. */
export const REPORTED = `
#### Reported, not codified

| object, field | who, when | why |
| --- | --- | --- |
{{#each reported}}
| {{code resource}}<br>{{#if field}}{{code field}}{{else}}whole object{{/if}} | {{text who}}{{#if cause}} ({{text cause}}){{/if}}<br>{{text when}} | {{prose reason}} |
{{/each}}
`;

export const PARTIALS = { 'value-diffs': VALUE_DIFFS, emergency: EMERGENCY, reported: REPORTED } as const;
