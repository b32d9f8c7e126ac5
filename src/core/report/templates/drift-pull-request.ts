// Drift PR body: what was codified, what was only reported and why, and what merging means.
export const DRIFT_PULL_REQUEST = `### driftback: live changes in {{code cluster}} written back to Git

The cluster differs from Git in ways a person made on purpose. This pull request writes those live values into the manifests (snapshot {{code snapshot.id}}, taken {{text snapshot.capturedAt}}).

{{#if codified.length}}
| resource | field | Git → live | who | when | file |
| --- | --- | --- | --- | --- | --- |
{{#each codified}}
| {{text resource}} | {{text field}} | {{text git}} → {{text live}} | {{text who}} | {{text when}} | {{text where}} |
{{/each}}
{{#if codifiedOmitted}}

… and {{codifiedOmitted}} more changes.
{{/if}}
{{else}}
Nothing is codified in this update.
{{/if}}
{{#if reported.length}}

#### Reported, not codified

| resource | field | why |
| --- | --- | --- |
{{#each reported}}
| {{text resource}} | {{text field}} | {{text reason}} |
{{/each}}
{{#if reportedOmitted}}

… and {{reportedOmitted}} more.
{{/if}}
{{/if}}

#### What merging or closing means

- **Merge**: Git agrees with the cluster; the GitOps controller keeps the live values.
- **Close** without merging: the decision is remembered, this drift is not proposed again, and the controller's next apply restores what Git says.
`;
