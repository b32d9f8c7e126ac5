// Executes a parsed template as text/template/exec.go does: dot and variables (`$` is the data), field
// chains on maps (a missing key is `<no value>`, or an error under `missingkey=error`), pipelines that
// pass each command's value as the next one's last argument, `and`/`or` evaluated lazily, `if`/`with`/
// `range` (slices by index, maps by sorted key, ints) with `break`/`continue`. Bounded: a template that
// runs too long or prints too much stops with an error.
import { TemplateError, type BlockNode, type Command, type Node, type Operand, type Pipeline } from './parser.js';
import {
  type GoMethod,
  GoObject,
  goType,
  isMap,
  printValue,
  truth,
  UnknownParam,
  UnorderedList,
  type Value,
} from './go-values.js';

/** What a function may ask of the run: `charge` counts costly work against the template's step budget. */
export interface CallContext {
  charge(steps: number): void;
}

export type TemplateFunction = (args: Value[], context: CallContext) => Value;

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

function step(state: State, steps = 1): void {
  state.steps += steps;
  if (state.steps > MAX_STEPS) throw new TemplateError(`template runs more than ${MAX_STEPS} steps`);
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
  known(value);
  ordered(value, 'prints');
  return printValue(value);
}

/** The functions that cannot observe the order of a list's items: they may take `values`' result. */
const ORDER_FREE = new Set(['len', 'has', 'mustHas', 'sortAlpha', 'empty', 'not', 'typeOf', 'kindIs', 'kindOf']);

/** A value whose order is Go's random map order stops the render where the order would show. */
function ordered(value: Value, verb: string, to?: string): void {
  if (value instanceof UnorderedList)
    throw new UnknownValueError(
      `template ${verb} the result of values${to ? ` to ${to}` : ''}, whose items come in Go's random map order; sort them first (values $d | sortAlpha)`,
    );
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
  if (isMap(value))
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
  ordered(value, 'ranges over');
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
  if (first!.type === 'nil') throw new TemplateError('nil is not a command');
  if (args.length === 0 && final === NO_FINAL) return evalOperand(first!, dot, state);
  const names = first!.type === 'field' || first!.type === 'variable' || first!.type === 'pipeline' ? first!.chain : [];
  if (names.length === 0) throw new TemplateError(`can't give argument to non-function ${describe(first!)}`);
  // `.A.B x` / `$v.Method x` / `(pipeline).Method x`: the last name of the chain gets the arguments.
  const receiver = evalOperand({ ...first!, chain: names.slice(0, -1) } as Operand, dot, state);
  const values = args.map((arg) => evalOperand(arg, dot, state));
  return field(receiver, names[names.length - 1]!, final === NO_FINAL ? values : [...values, final], state);
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
  const free = ORDER_FREE.has(name);
  if (!free) values.forEach((value) => ordered(value, 'passes', name));
  const context: CallContext = { charge: (steps) => step(state, steps) };
  try {
    return fn(
      values.map((value) => (free && value instanceof UnorderedList ? [...value.items] : value)),
      context,
    );
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
      return null; // an argument; as a command it was refused by evalCommand.
    case 'function':
      return call(operand.name, [], dot, state, NO_FINAL);
    default:
      return operand.value;
  }
}

/** `.a.b` on a value: map keys; a missing key per `missingkey`; methods of Go values called. */
function chain(value: Value, names: readonly string[], state: State): Value {
  let current = value;
  for (const name of names) {
    if (current === undefined) {
      if (state.options.missingKeyError) throw new TemplateError(`nil data; no entry for key "${name}"`);
      return undefined;
    }
    current = field(current, name, undefined, state);
  }
  return current;
}

/** exec.go evalField: a method of a Go value (called with `args`), else a map key (which takes none). */
function field(receiver: Value, name: string, args: Value[] | undefined, state: State): Value {
  known(receiver);
  if (receiver === undefined) {
    if (state.options.missingKeyError) throw new TemplateError(`nil data; no entry for key "${name}"`);
    return undefined;
  }
  if (receiver === null) throw new TemplateError(`nil pointer evaluating interface {}.${name}`);
  if (receiver instanceof GoObject) {
    const method = receiver.methods[name];
    if (!method) throw new TemplateError(`can't evaluate field ${name} in type ${receiver.type}`);
    return invoke(name, method, args ?? []);
  }
  if (!isMap(receiver)) throw new TemplateError(`can't evaluate field ${name} in type ${goType(receiver)}`);
  if (args) throw new TemplateError(`${name} is not a method but has arguments`);
  if (Object.hasOwn(receiver, name)) return receiver[name];
  if (state.options.missingKeyError) throw new TemplateError(`map has no entry for key "${name}"`);
  return undefined;
}

/** exec.go evalCall for a method: the arity and each argument's type checked as Go checks them. */
function invoke(name: string, method: GoMethod, args: Value[]): Value {
  if (args.length !== method.params.length)
    throw new TemplateError(`wrong number of args for ${name}: want ${method.params.length} got ${args.length}`);
  method.params.forEach((type, i) => {
    const arg = args[i];
    known(arg);
    ordered(arg, 'passes', name);
    if (arg === null || arg === undefined) {
      if (type.startsWith('*'))
        throw new TemplateError(
          `error calling ${name}: runtime error: invalid memory address or nil pointer dereference`,
        );
      throw new TemplateError(`invalid value; expected ${type}`);
    }
    if (!fits(type, arg)) throw new TemplateError(`wrong type for value; expected ${type}; got ${goType(arg)}`);
  });
  try {
    return method.call(args);
  } catch (error) {
    if (error instanceof TemplateError) throw new TemplateError(`error calling ${name}: ${error.message}`);
    throw error;
  }
}

/** Whether a value can be passed as a parameter of the Go type (an int constant is a time.Duration). */
function fits(type: string, value: Value): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'int' || type === 'time.Duration') return typeof value === 'bigint';
  return value instanceof GoObject && value.type === type;
}
