// Executes a parsed template as text/template/exec.go does: dot and variables (`$` is the data), field
// chains on maps (a missing key is `<no value>`, or an error under `missingkey=error`), pipelines that
// pass each command's value as the next one's last argument, `and`/`or` evaluated lazily, `if`/`with`/
// `range` (slices by index, maps by sorted key, ints) with `break`/`continue`. Bounded: a template that
// runs too long or prints too much stops with an error.
import { isPlainObject } from '../../model/index.js';
import { TemplateError, type BlockNode, type Command, type Node, type Operand, type Pipeline } from './parser.js';
import { GoObject, goType, printValue, truth, UnknownParam, type Value } from './go-values.js';

export type TemplateFunction = (args: Value[]) => Value;

export interface ExecOptions {
  missingKeyError: boolean;
  functions: Readonly<Record<string, TemplateFunction>>;
}

/** The template used a value that cannot be known here; `why` says which. */
export class UnknownValueError extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

const MAX_STEPS = 200_000;
const MAX_OUTPUT = 1 << 20;

interface State {
  options: ExecOptions;
  vars: Array<{ name: string; value: Value }>;
  out: string[];
  length: number;
  steps: number;
}

type Flow = 'break' | 'continue' | undefined;

export function execute(nodes: Node[], data: Value, options: ExecOptions): string {
  checkFunctions(nodes, options.functions);
  const state: State = { options, vars: [{ name: '$', value: data }], out: [], length: 0, steps: 0 };
  walk(nodes, data, state);
  return state.out.join('');
}

/** Every function a template names must exist, run or not (Go refuses an undefined one when parsing). */
function checkFunctions(nodes: Node[], functions: ExecOptions['functions']): void {
  const pipeline = (p: Pipeline): void => p.commands.forEach((command) => command.forEach(operand));
  const operand = (o: Operand): void => {
    if (o.type === 'function' && !Object.hasOwn(functions, o.name) && !LAZY.has(o.name))
      throw new TemplateError(`function ${o.name} not supported`);
    if (o.type === 'pipeline') pipeline(o.pipeline);
  };
  for (const node of nodes) {
    if (node.type === 'action') pipeline(node.pipeline);
    if (node.type === 'if' || node.type === 'with' || node.type === 'range') {
      pipeline(node.pipeline);
      checkFunctions(node.list, functions);
      if (node.otherwise) checkFunctions(node.otherwise, functions);
    }
  }
}

function step(state: State): void {
  if (++state.steps > MAX_STEPS) throw new TemplateError(`template runs more than ${MAX_STEPS} steps`);
}

function write(state: State, text: string): void {
  state.length += text.length;
  if (state.length > MAX_OUTPUT) throw new TemplateError(`template prints more than ${MAX_OUTPUT} characters`);
  state.out.push(text);
}

function walk(nodes: Node[], dot: Value, state: State): Flow {
  for (const node of nodes) {
    step(state);
    if (node.type === 'text') write(state, node.text);
    else if (node.type === 'break') return 'break';
    else if (node.type === 'continue') return 'continue';
    else if (node.type === 'action') {
      const value = evalPipeline(node.pipeline, dot, state);
      if (node.pipeline.variables.length === 0) write(state, printed(value));
    } else {
      const mark = state.vars.length;
      const flow = node.type === 'range' ? walkRange(node, dot, state) : walkBranch(node, dot, state);
      state.vars.length = mark;
      if (flow) return flow;
    }
  }
  return undefined;
}

function printed(value: Value): string {
  if (value instanceof UnknownParam) throw new UnknownValueError(value.why);
  return printValue(value);
}

function walkBranch(node: BlockNode, dot: Value, state: State): Flow {
  const value = evalPipeline(node.pipeline, dot, state);
  known(value);
  if (truth(value)) return walk(node.list, node.type === 'with' ? value : dot, state);
  return node.otherwise ? walk(node.otherwise, dot, state) : undefined;
}

function rangeItems(value: Value): Array<[Value, Value]> | undefined {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((item, i) => [BigInt(i), item]);
  if (isPlainObject(value))
    return Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]);
  if (typeof value === 'bigint')
    return Array.from({ length: Number(value > 0n ? value : 0n) }, (_, i) => [BigInt(i), BigInt(i)]);
  return undefined;
}

function walkRange(node: BlockNode, dot: Value, state: State): Flow {
  const { variables } = node.pipeline;
  const value = evalPipeline({ ...node.pipeline, variables: [] }, dot, state);
  known(value);
  const items = rangeItems(value);
  if (items === undefined) throw new TemplateError(`range can't iterate over ${printValue(value)}`);
  if (items.length === 0) return node.otherwise ? walk(node.otherwise, dot, state) : undefined;
  for (const [key, item] of items) {
    const mark = state.vars.length;
    if (variables.length === 1) state.vars.push({ name: variables[0]!, value: item });
    if (variables.length === 2)
      state.vars.push({ name: variables[0]!, value: key }, { name: variables[1]!, value: item });
    const flow = walk(node.list, item, state);
    state.vars.length = mark;
    if (flow === 'break') break;
  }
  return undefined;
}

function evalPipeline(pipeline: Pipeline, dot: Value, state: State): Value {
  let value: Value = NO_FINAL;
  for (const command of pipeline.commands) value = evalCommand(command, dot, state, value);
  for (const name of pipeline.variables) {
    if (!pipeline.assign) state.vars.push({ name, value });
    else {
      const found = [...state.vars].reverse().find((v) => v.name === name);
      if (!found) throw new TemplateError(`undefined variable: ${name}`);
      found.value = value;
    }
  }
  return value;
}

const NO_FINAL = Symbol('no final');
const LAZY = new Set(['and', 'or']);

function evalCommand(command: Command, dot: Value, state: State, final: Value): Value {
  step(state);
  const [first, ...args] = command;
  if (first!.type === 'function') return call(first!.name, args, dot, state, final);
  if (args.length > 0 || final !== NO_FINAL)
    throw new TemplateError(`can't give argument to non-function ${describe(first!)}`);
  return evalOperand(first!, dot, state);
}

function describe(operand: Operand): string {
  if (operand.type === 'field') return `.${operand.chain.join('.')}`;
  if (operand.type === 'variable') return [operand.name, ...operand.chain].join('.');
  return operand.type;
}

function call(name: string, args: Operand[], dot: Value, state: State, final: Value): Value {
  const withFinal = (values: Value[]) => (final === NO_FINAL ? values : [...values, final]);
  if (LAZY.has(name)) {
    const count = args.length + (final === NO_FINAL ? 0 : 1);
    if (count === 0) throw new TemplateError(`wrong number of args for ${name}: want at least 1 got 0`);
    let value: Value;
    for (let i = 0; i < count; i++) {
      value = i < args.length ? evalOperand(args[i]!, dot, state) : final;
      known(value);
      if (truth(value) === (name === 'or')) return value;
    }
    return value;
  }
  const fn = state.options.functions[name];
  if (!fn) throw new TemplateError(`function ${name} not supported`);
  const values = withFinal(args.map((arg) => evalOperand(arg, dot, state)));
  values.forEach(known);
  try {
    return fn(values);
  } catch (error) {
    if (error instanceof TemplateError) throw new TemplateError(`error calling ${name}: ${error.message}`);
    throw error;
  }
}

function known(value: Value): void {
  if (value instanceof UnknownParam) throw new UnknownValueError(value.why);
}

function evalOperand(operand: Operand, dot: Value, state: State): Value {
  switch (operand.type) {
    case 'dot':
      return dot;
    case 'field':
      return chain(dot, operand.chain, state);
    case 'variable': {
      const found = [...state.vars].reverse().find((v) => v.name === operand.name);
      if (!found) throw new TemplateError(`undefined variable: ${operand.name}`);
      return chain(found.value, operand.chain, state);
    }
    case 'pipeline':
      return chain(evalPipeline(operand.pipeline, dot, state), operand.chain, state);
    case 'nil':
      throw new TemplateError('nil is not a command');
    case 'function':
      return call(operand.name, [], dot, state, NO_FINAL);
    default:
      return operand.value;
  }
}

/** `.a.b` on a value: map keys; a missing key per `missingkey`; a field of anything else is an error. */
function chain(value: Value, names: readonly string[], state: State): Value {
  let current = value;
  for (const name of names) {
    known(current);
    if (current === undefined) {
      if (state.options.missingKeyError) throw new TemplateError(`nil data; no entry for key "${name}"`);
      return undefined;
    }
    if (current === null) throw new TemplateError(`nil pointer evaluating interface {}.${name}`);
    if (current instanceof GoObject) {
      const method = current.methods[name];
      if (!method) throw new TemplateError(`can't evaluate field ${name} in type ${current.type}`);
      current = method();
      continue;
    }
    if (!isPlainObject(current)) throw new TemplateError(`can't evaluate field ${name} in type ${goType(current)}`);
    if (Object.hasOwn(current, name)) current = current[name];
    else if (state.options.missingKeyError) throw new TemplateError(`map has no entry for key "${name}"`);
    else current = undefined;
  }
  return current;
}
