/** circuit/emit-final.ts: changes held until their row is final under the waterline, weights summed while held. */
import { describe, expect, it } from 'vitest';
import { heldRows, takeFinal } from '../../../src/engine/circuit/emit-final.js';

describe('takeFinal', () => {
  const lineage = { table: 'T', col: 1, slack: 10 };

  it('holds rows until value + slack <= waterline, and gives each once', () => {
    const f = heldRows({ col: 0, wm: lineage });
    expect(
      takeFinal(
        f,
        [
          [[5, 'a'], 1],
          [[20, 'b'], 1],
        ],
        undefined,
      ),
    ).toEqual([]); // no waterline yet
    expect(takeFinal(f, undefined, 14)).toEqual([]);
    expect(takeFinal(f, undefined, 15)).toEqual([[[5, 'a'], 1]]);
    expect(takeFinal(f, undefined, 29)).toEqual([]);
    expect(takeFinal(f, undefined, 100)).toEqual([[[20, 'b'], 1]]);
    expect(f.held.size).toBe(0);
  });

  it('a row retracted while held is never given; weights of one row add up', () => {
    const f = heldRows({ col: 0, wm: lineage });
    takeFinal(
      f,
      [
        [[1, 'x'], 1],
        [[2, 'y'], 1],
      ],
      undefined,
    );
    takeFinal(
      f,
      [
        [[1, 'x'], -1],
        [[2, 'y'], 2],
      ],
      undefined,
    );
    expect(takeFinal(f, undefined, 1000)).toEqual([[[2, 'y'], 3]]);
  });
});
