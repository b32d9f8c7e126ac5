// Patterns from a repository or a snapshot, matched in linear time (RE2 syntax and semantics).
export { compileAnchored, compileRe2, quoteRe2, type CompiledPattern, type Pattern } from './re2.js';
export {
  compileArgoGlob,
  compileConfigGlobs,
  compileDoublestarGlob,
  compileGoPathMatch,
  compilePathGlob,
} from './globs.js';
