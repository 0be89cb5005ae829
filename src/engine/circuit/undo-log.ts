/**
 * A step's undo log (circuit.ts: a step is all or nothing). Contract: `keyed` is called before a primary-key
 * table's key map changes (the row it held, or undefined), `saveWatermarks` before a table's watermarks move;
 * `commit` forgets them at the end of a step that succeeded, `rollback` puts every map and watermark back as it
 * was before the step (newest change first) and forgets them. The log is flat triples (map, key, old row)
 * reused from step to step, so a step allocates nothing for it.
 */
import type { Row } from '../types/values.js';

/** What holds watermarks (inputs.ts TableState). */
interface Watermarked {
  watermarks: Map<number, number>;
}

export class StepUndoLog {
  private readonly keyedRows: unknown[] = [];
  private readonly savedWatermarks = new Map<Watermarked, Map<number, number>>();

  /** Records the row `map` holds at `key` (undefined: none) before the step changes it. */
  keyed(map: Map<string | number, Row>, key: string | number, old: Row | undefined): void {
    this.keyedRows.push(map, key, old);
  }

  /** Records a table's watermarks before the step moves them. */
  saveWatermarks(t: Watermarked): void {
    this.savedWatermarks.set(t, new Map(t.watermarks));
  }

  /** The step succeeded: holds no replaced rows past it. */
  commit(): void {
    this.keyedRows.length = 0;
    if (this.savedWatermarks.size) this.savedWatermarks.clear();
  }

  /** The step is refused: every key map and watermark as before it. */
  rollback(): void {
    const undo = this.keyedRows;
    for (let i = undo.length - 3; i >= 0; i -= 3) {
      const map = undo[i] as Map<string | number, Row>;
      const k = undo[i + 1] as string | number;
      const old = undo[i + 2] as Row | undefined;
      if (old === undefined) map.delete(k);
      else map.set(k, old);
    }
    undo.length = 0;
    for (const [t, wm] of this.savedWatermarks) t.watermarks = wm;
    this.savedWatermarks.clear();
  }
}
