// The files as codify has edited them so far: later edits see earlier ones, and the result lists
// only the files whose text changed.

export class Workspace {
  private readonly changed = new Map<string, string>();

  constructor(private readonly original: ReadonlyMap<string, string>) {}

  read(path: string): string | undefined {
    return this.changed.get(path) ?? this.original.get(path);
  }

  write(path: string, text: string): void {
    this.changed.set(path, text);
  }

  /** The edits so far, to go back to with `restore` when a later edit is undone. */
  mark(): ReadonlyMap<string, string> {
    return new Map(this.changed);
  }

  restore(mark: ReadonlyMap<string, string>): void {
    this.changed.clear();
    for (const [path, text] of mark) this.changed.set(path, text);
  }

  /** Every file as it is now, for the self-check's render. */
  files(): Map<string, string> {
    const all = new Map(this.original);
    for (const [path, text] of this.changed) all.set(path, text);
    return all;
  }

  /** Files whose text differs from the original (new files included). */
  edits(): Map<string, string> {
    return new Map([...this.changed].filter(([path, text]) => this.original.get(path) !== text));
  }
}
