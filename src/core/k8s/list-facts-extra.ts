// Lists of well-known built-in kinds that the generated table does not cover (their OpenAPI
// documents are not among the ones it reads). Written by hand from the Kubernetes API reference.
// Kinds named here with no lists are listed on purpose: every list in them is atomic
// (Ingress rules and tls, Role/ClusterRole rules, RoleBinding subjects, HPA metrics, NetworkPolicy
// ingress/egress carry no list annotation in the API), so the whole list is compared.
import type { KindFacts } from './list-facts.js';

export const EXTRA_LIST_FACTS: Readonly<Record<string, KindFacts>> = {
  'batch/Job': { podSpecAt: ['/spec/template/spec'], lists: {} },
  'batch/CronJob': { podSpecAt: ['/spec/jobTemplate/spec/template/spec'], lists: {} },
  'networking.k8s.io/Ingress': { podSpecAt: [], lists: {} },
  'networking.k8s.io/NetworkPolicy': { podSpecAt: [], lists: {} },
  'rbac.authorization.k8s.io/Role': { podSpecAt: [], lists: {} },
  'rbac.authorization.k8s.io/ClusterRole': { podSpecAt: [], lists: {} },
  'rbac.authorization.k8s.io/RoleBinding': { podSpecAt: [], lists: {} },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { podSpecAt: [], lists: {} },
  'autoscaling/HorizontalPodAutoscaler': { podSpecAt: [], lists: {} },
  'policy/PodDisruptionBudget': { podSpecAt: [], lists: {} },
};
