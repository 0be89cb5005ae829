/**
 * ARG_MAX(value, compared) / ARG_MIN: the MIN/MAX state (a multiset with the cached extreme, rescanned only
 * when the extreme leaves) over [compared, value] pairs; rows whose compared is NULL are skipped by the caller.
 * Among rows tied on compared, the largest value wins for ARG_MAX and the smallest for ARG_MIN (deterministic).
 */
import type { Value } from '../../types/values.js';
import { ExtremeAcc } from '../aggregate.js';

export class ArgExtremeAcc extends ExtremeAcc {
  override result(): Value {
    const best = super.result();
    return best === null ? null : (best as Value[])[1]!;
  }
}
