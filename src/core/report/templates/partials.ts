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

export const PARTIALS = { 'value-diffs': VALUE_DIFFS, emergency: EMERGENCY } as const;
