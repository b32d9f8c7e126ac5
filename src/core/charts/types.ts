// The chart request and output types live in the model (kustomize's helmCharts build asks for charts
// too, and it sits below this folder); this folder's users import them from here.
export type { ChartLocation, ChartOutput, ChartRenderer, ChartRequest, ChartSetValue } from '../model/index.js';
