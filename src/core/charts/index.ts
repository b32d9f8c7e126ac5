export type { ChartLocation, ChartOutput, ChartRenderer, ChartRequest, ChartSetValue } from './types.js';
export { chartObjects, type PostRenderer } from './output.js';
export { templatesOf } from '../manifests/index.js';
export { apiVersionsOf, renderChart, secretPlaceholder, type ChartCapabilities } from './render-chart.js';
export { mergeValues, readValues, setPathValue, withArchiveDefaults, type Values } from './values.js';
export { compareSemver, isExactVersion, parseSemver, satisfiesRange, type Semver } from './semver.js';
