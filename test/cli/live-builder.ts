// Builds live objects from rendered manifests, as an API server would return them after a GitOps
// controller applied them: server-set metadata, status, and managedFields for the applier.
import type { DesiredObject, KubeObject, ManagedFieldsEntry } from '../../src/core/model/index.js';

export const APPLIED_AT = '2026-12-01T09:00:00Z';

export function appliedLive(desired: DesiredObject, index: number): KubeObject {
  const object = structuredClone(desired.object);
  object.metadata = {
    ...object.metadata,
    uid: `00000000-0000-0000-0000-${String(index).padStart(12, '0')}`,
    resourceVersion: String(1000 + index),
    generation: 1,
    creationTimestamp: APPLIED_AT,
    managedFields: [
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: object.apiVersion,
        time: APPLIED_AT,
        fieldsType: 'FieldsV1',
        fieldsV1: {},
      },
    ],
  };
  return object;
}

/** Records a later write to `fieldsV1` paths by another manager, as kubectl scale/edit would. */
export function touchedBy(live: KubeObject, manager: string, time: string, fieldsV1: Record<string, unknown>): void {
  const entry: ManagedFieldsEntry = {
    manager,
    operation: 'Update',
    apiVersion: live.apiVersion,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1,
  };
  live.metadata.managedFields = [...(live.metadata.managedFields ?? []), entry];
}
