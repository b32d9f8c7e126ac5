// go-yaml v2's wording for a document it cannot read (scannerc.go, parserc.go, decode.go `fail`), from
// the JavaScript reader's error: the problem libyaml states for the same text and the line it names.
// decode.go counts that line its own way: a scanner error names the 1-based line of the problem, a
// parser error the 0-based line of the token it refused (so the line before it); on the first line no
// line is named.
import type { YAMLError } from 'yaml';

interface GoProblem {
  problem: string;
  scanner: boolean;
  offset: number;
}

/** The first `:` that ends a key (followed by a blank or a line end) from `from` on. */
function colonAfter(source: string, from: number): number {
  const pattern = /:(?=[ \t\n]|$)/g;
  pattern.lastIndex = from;
  return pattern.exec(source)?.index ?? from;
}

function classify(source: string, error: YAMLError): GoProblem {
  const at = error.pos[0];
  const scanner = (problem: string, offset = at): GoProblem => ({ problem, scanner: true, offset });
  switch (error.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      if (/^\?[ \t\n]/.test(source.slice(at))) return scanner('mapping keys are not allowed in this context');
      return scanner('mapping values are not allowed in this context', colonAfter(source, at));
    case 'BAD_ALIAS':
      return scanner('did not find expected alphabetic or numeric character');
    case 'BAD_SCALAR_START':
    case 'TAB_AS_INDENT':
      return scanner('found character that cannot start any token');
    case 'BAD_DQ_ESCAPE':
      return scanner('found unknown escape character');
    case 'MISSING_CHAR':
      if (/^Missing closing .?quote/.test(error.message))
        return scanner('found unexpected end of stream', source.length);
      break;
    case 'UNEXPECTED_TOKEN':
      if (error.message.includes('block-seq-ind'))
        return scanner('block sequence entries are not allowed in this context');
      if (error.message.startsWith('Block scalar header'))
        return scanner('did not find expected comment or line break');
      if (/^Unexpected flow-(seq|map)-end/.test(error.message))
        return { problem: 'did not find expected node content', scanner: false, offset: at };
      break;
    case 'BAD_INDENT': {
      const flow = /^Flow (sequence|map)/.exec(error.message);
      if (flow)
        return {
          problem: `did not find expected ',' or '${flow[1] === 'map' ? '}' : ']'}'`,
          scanner: false,
          offset: source.length,
        };
      break;
    }
  }
  return { problem: 'did not find expected key', scanner: false, offset: at };
}

/** `yaml: line N: <problem>` as go-yaml v2 reports the error on this text. */
export function goParseError(source: string, error: YAMLError): string {
  const { problem, scanner, offset } = classify(source, error);
  const line = source.slice(0, offset).split('\n').length - 1;
  if (line === 0) return `yaml: ${problem}`;
  return `yaml: line ${scanner ? line + 1 : line}: ${problem}`;
}
