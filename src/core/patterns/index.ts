// Patterns from a repository or a snapshot, matched in linear time (RE2 syntax and semantics).
export {
  compileAnchored,
  compileFinder,
  compileRe2,
  quoteRe2,
  type CompiledPattern,
  type Finder,
  type Pattern,
  type RegexMatch,
} from './re2.js';
export {
  compileArgoGlob,
  compileConfigGlobs,
  compileDoublestarGlob,
  compileGoPathMatch,
  compilePathGlob,
} from './globs.js';
