// Types for the part of @michaelhomer/jqjs driftback uses (the package ships none).
declare module '@michaelhomer/jqjs' {
  /** A compiled jq program: each run yields the program's outputs one by one. */
  export type JqFilter = (input: unknown) => IterableIterator<unknown>;
  /** Parses and compiles a jq program; throws on a syntax error. */
  export function compile(program: string): JqFilter;
}
