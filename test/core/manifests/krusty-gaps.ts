// kustomize conformance cases driftback does not pass yet, with what differs. The conformance test
// fails when one of them starts passing, so this list only shrinks.
export const KRUSTY_GAPS: Readonly<Record<string, string>> = {
  'accumulation_test.go: TestTargetMustHaveKustomizationFile':
    'a directory without kustomization.yaml is rendered as its YAML files, as Flux and Argo CD do',
  'managedbylabel_test.go: TestAddManagedbyLabel':
    "the CLI flag that adds the managed-by label is no GitOps controller's, and the test expects the version its Makefile stamps (`kustomize-(test)`); `buildMetadata: [managedByLabel]` writes kustomize-v5.7.1 as kubectl kustomize does",
  'namespaces_test.go: TestNameReferenceDeploymentIssue3489': 'the test builds bases outside the tree it gives',
  'openapicustomschema_test.go: TestCustomOpenApiFieldBasicUsageWithRemoteSchema':
    'driftback reports a problem kustomize does not',
  'openapicustomschema_test.go: TestCustomOpenApiFieldFromBaseWithRemoteSchema':
    'driftback reports a problem kustomize does not',
  'openapicustomschema_test.go: TestCustomOpenApiFieldFromOverlayWithRemoteSchema':
    'driftback reports a problem kustomize does not',
};
