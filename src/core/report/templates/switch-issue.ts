// The emergency switch issue's body: each switch flipped by hand with what it stops, since when and by
// whom, and how a person keeps it in Git; then what happens when nobody decides.
export const SWITCH_ISSUE = `An emergency switch was flipped by hand on {{code cluster}}, and the cluster has no other drift to open a drift pull request for. driftback never writes a switch into Git on its own: kept in Git, it would stay flipped for good. That takes a person's decision, made here.

{{#each switches}}
### {{code resource}} {{code field}}

{{#if on}}
- **What it stops:** {{prose stops}}.
{{else}}
- **What it does:** Git keeps the switch on; the next sync turns it on again.
{{/if}}
- **Live:** {{#if live}}{{code live}}{{else}}not set{{/if}} {{#if since}}since {{text since}}{{else}}flipped{{/if}}{{#if who}} by {{code who}}{{/if}}{{#unless since}}, time unknown{{/unless}} ({{code command}}{{#unless on}} undone{{/unless}}); **Git:** {{#if git}}{{code git}}{{else}}not set{{/if}} in {{code file}}.
{{#if decided}}
- **Kept in Git**, {{prose decided.text}}: {{#if decided.pullRequest}}#{{decided.pullRequest}}{{else}}the drift pull request of {{code decided.branch}}{{/if}} writes it into {{code file}}; this issue closes once it is merged.
{{else}}
- **To keep it in Git**, comment here (write access to this repository needed):

{{block allow}}

  driftback then opens the drift pull request that writes exactly this value into {{code file}}; this issue closes once it is merged.
{{/if}}

{{/each}}
### If nobody decides

The switch stays reported: here, on the dashboard, and in \`driftback diff\`. Nothing is written into Git. Turning it back by hand (to Git's value) clears it, and this issue closes.
`;
