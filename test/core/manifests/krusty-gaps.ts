// kustomize conformance cases driftback does not pass yet, with what differs. The conformance test
// fails when one of them starts passing, so this list only shrinks.
export const KRUSTY_GAPS: Readonly<Record<string, string>> = {
  'accumulation_test.go: TestTargetMustHaveKustomizationFile':
    'a directory without kustomization.yaml is rendered as its YAML files, as Flux and Argo CD do',
  'managedbylabel_test.go: TestAddManagedbyLabel':
    "the label is `kustomize-(test)`, the version kustomize's Makefile stamps into its test binary; a real kustomize writes its release (kubectl kustomize 5.7.1: `kustomize-v5.7.1`, as driftback does for the flag and for `buildMetadata: [managedByLabel]`)",
  'namespaces_test.go: TestNameReferenceDeploymentIssue3489':
    "the root lists `../ov1`: the test's in-memory file system reads `..` of its root `/` as `/` itself; in a repository it leaves the repository, which Flux and Argo CD refuse and so does driftback",
  'openapicustomschema_test.go: TestCustomOpenApiFieldBasicUsageWithRemoteSchema':
    'driftback reports a problem kustomize does not',
  'openapicustomschema_test.go: TestCustomOpenApiFieldFromBaseWithRemoteSchema':
    'driftback reports a problem kustomize does not',
  'openapicustomschema_test.go: TestCustomOpenApiFieldFromOverlayWithRemoteSchema':
    'driftback reports a problem kustomize does not',
};
