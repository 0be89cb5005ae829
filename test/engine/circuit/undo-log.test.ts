/** circuit/undo-log.ts: a refused step puts key maps and watermarks back; a good one forgets what it recorded. */
import { describe, expect, it } from 'vitest';
import { StepUndoLog } from '../../../src/engine/circuit/undo-log.js';
import type { Row } from '../../../src/engine/types/values.js';

describe('StepUndoLog', () => {
  it('rollback restores every key of a map as before the step, a key set twice to its first value', () => {
    const map = new Map<string | number, Row>([
      [1, [1, 'a']],
      [2, [2, 'b']],
    ]);
    const table = { watermarks: new Map([[0, 10]]) };
    const undo = new StepUndoLog();
    undo.keyed(map, 1, map.get(1));
    map.set(1, [1, 'x']);
    undo.keyed(map, 1, map.get(1));
    map.set(1, [1, 'y']);
    undo.keyed(map, 3, map.get(3));
    map.set(3, [3, 'c']);
    undo.keyed(map, 2, map.get(2));
    map.delete(2);
    undo.saveWatermarks(table);
    table.watermarks.set(0, 20);
    undo.rollback();
    expect([...map.entries()].sort()).toEqual([
      [1, [1, 'a']],
      [2, [2, 'b']],
    ]);
    expect(table.watermarks.get(0)).toBe(10);
    // nothing is left to undo
    map.set(1, [1, 'z']);
    undo.rollback();
    expect(map.get(1)).toEqual([1, 'z']);
  });

  it('commit forgets the step: a later rollback does not undo it', () => {
    const map = new Map<string | number, Row>();
    const table = { watermarks: new Map<number, number>() };
    const undo = new StepUndoLog();
    undo.keyed(map, 'k', undefined);
    map.set('k', ['v']);
    undo.saveWatermarks(table);
    table.watermarks.set(0, 5);
    undo.commit();
    undo.rollback();
    expect(map.get('k')).toEqual(['v']);
    expect(table.watermarks.get(0)).toBe(5);
  });
});
