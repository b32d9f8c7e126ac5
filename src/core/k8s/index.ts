// Kubernetes knowledge, each fact written once: list keys and merge strategies, defaulted fields,
// server-set metadata, managedFields, what a snapshot covers, Secrets, kinds and their plurals,
// quantities, immutable fields. Every other core module asks here.
export {
  isBuiltInClusterScoped,
  isBuiltInGroup,
  isClusterMade,
  isNamespace,
  namespaceKey,
  namesType,
  parseResourceName,
  pluralOf,
  type ResourceName,
} from './kinds.js';
export {
  listKeysFor,
  resolveListKeys,
  strategicMergeInSchema,
  strategicMergeOf,
  type ListKeyEvidence,
  type StrategicMerge,
} from './list-keys.js';
export { hasSharedSchema, mergeFactsAt, type FieldMerge } from './merge-facts.js';
export { canonicalKey, indexOfItem, itemHasKey, itemKey, valueAtSegments, type ItemKey } from './keyed-items.js';
export * from './defaults.js';
export {
  isControllerOwned,
  isServerSetAnnotation,
  LAST_APPLIED,
  lastAppliedOf,
  SERVER_SET_METADATA,
  withoutServerMetadata,
  withoutServerState,
  type ServerSetField,
} from './metadata.js';
export { isEmpty, withoutNoise } from './noise.js';
export {
  childOwn,
  creationOf,
  hasManagedFields,
  itemOwn,
  latestOwner,
  listersOf,
  mainOwner,
  ownedFieldsOf,
  ownersOf,
  ownNodeAt,
  positionOwn,
  type CreatedBy,
  type OwnerRole,
  type Owner,
  type OwnNode,
  type OwnershipIndex,
} from './managed-fields.js';
export {
  coverageOf,
  FULL_SCOPE,
  scopeNamespaces,
  type Coverage,
  type SnapshotScope,
  type UnlistedType,
} from './snapshot-scope.js';
export {
  foldStringData,
  isSecret,
  isSecretValuePath,
  maskSecretValues,
  maskAt,
  secretMask,
  SECRET_HASH_PREFIX,
  SECRET_NOT_WRITTEN,
  SECRET_VALUE_FIELDS,
  secretValuesEqual,
} from './secret.js';
export { isQuantityField, parseQuantity, quantitiesEqual } from './quantity.js';
export { immutableReason } from './immutable.js';
export { fieldPath, type FieldPathOf } from './field-path.js';
export {
  FIELD_PATH_EXAMPLE,
  fieldPathCovers,
  parseFieldPath,
  writeFieldPath,
  type FieldPathSegment,
} from './field-path-text.js';
export {
  EPHEMERAL_KINDS,
  ephemeralReason,
  IMPERATIVE_ACTIONS,
  imperativeActionAt,
  imperativeActionOf,
  type ImperativeAction,
} from './imperative.js';
export { emergencySwitchReason, GITOPS_CONTROLLER_WORKLOADS, switchOnAt } from './pause-switches.js';
export {
  AUTOSCALED_PATH,
  autoscalerOwning,
  autoscalerReason,
  describeAutoscaler,
  indexAutoscalers,
  type Autoscaler,
  type AutoscalerIndex,
} from './autoscalers.js';
export {
  customDefaultsLookup,
  customKindsOf,
  customListKeysLookup,
  customLookupsOf,
  type CustomKinds,
  type DefaultLookup,
  type ListKeysLookup,
} from './crd-schemas.js';
export { recordedListKeys, type RecordedListKeys } from './managed-list-keys.js';
export { dropsZero, isZeroScalar } from './omit-empty.js';
export {
  isClusterScopedKind,
  kindScopesOf,
  type KindScope,
  type KindScopeEvidence,
  type KindScopes,
} from './kind-scopes.js';
export { schemaProblems, type SchemaProblem } from './validate.js';
export { registryOf } from './image-reference.js';
export {
  addedCapabilities,
  BASELINE_CAPABILITIES,
  containersOf,
  HOST_NAMESPACE_FIELDS,
  podSpecsOf,
  privilegedSettings,
  runsAsNonRoot,
  type ContainerAt,
  type PodSpecAt,
} from './pod-security.js';
export {
  describeSubject,
  escalationsOf,
  EVERYONE_GROUPS,
  POWERFUL_CLUSTER_ROLES,
  roleEscalations,
  type RbacRule,
} from './rbac.js';
export { labelSelector, type LabelMatcher } from './label-selector.js';
