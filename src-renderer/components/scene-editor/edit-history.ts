/**
 * The scene editor's undo history (pure; unit-tested): a list of immutable states, each with the
 * label of the edit that made it, and a cursor. An edit after undos drops the undone states
 * (there is no branch); `at` jumps to any entry of the list (the history panel).
 */
export interface HistoryEntry<S> {
  label: string;
  state: S;
}

export class EditHistory<S> {
  private readonly entries: HistoryEntry<S>[];
  private cursor = 0;

  constructor(
    initial: S,
    initialLabel = 'Start',
    /** Oldest edits beyond this many are forgotten (the start state goes with them). */
    private readonly limit = 200,
  ) {
    this.entries = [{ label: initialLabel, state: initial }];
  }

  get state(): S {
    return this.entries[this.cursor]!.state;
  }

  get index(): number {
    return this.cursor;
  }

  get list(): readonly HistoryEntry<S>[] {
    return this.entries;
  }

  get canUndo(): boolean {
    return this.cursor > 0;
  }

  get canRedo(): boolean {
    return this.cursor < this.entries.length - 1;
  }

  /** Records an edit; a state identical (===) to the current one is no edit. Returns whether it was recorded. */
  push(label: string, state: S): boolean {
    if (state === this.state) return false;
    this.entries.splice(this.cursor + 1);
    this.entries.push({ label, state });
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    this.cursor = this.entries.length - 1;
    return true;
  }

  undo(): S {
    if (this.canUndo) this.cursor--;
    return this.state;
  }

  redo(): S {
    if (this.canRedo) this.cursor++;
    return this.state;
  }

  /** Back or forward to entry `i` of the list. */
  at(i: number): S {
    this.cursor = Math.max(0, Math.min(this.entries.length - 1, Math.trunc(i)));
    return this.state;
  }

  /** Forget everything: `state` becomes the only entry. */
  reset(state: S, label = 'Start'): void {
    this.entries.splice(0, this.entries.length, { label, state });
    this.cursor = 0;
  }
}
