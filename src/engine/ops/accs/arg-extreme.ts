/**
 * ARG_MAX(value, compared) / ARG_MIN: the MIN/MAX state (a multiset with the cached extreme, rescanned only
 * when the extreme leaves) over [rank, compared, value] triples made by `argExtremeEntry`. As Feldera's (DBSP's
 * Max over (Option<K>, V) and ArgMinSome, sqllib agg_max1/agg_min1 under FILTER): a row whose compared is NULL
 * loses to any row whose compared is not, but is not skipped: when every row's compared is NULL the answer is
 * still one of their values (the largest for ARG_MAX, the smallest for ARG_MIN). Among rows tied on compared,
 * the largest value wins for ARG_MAX and the smallest for ARG_MIN (NULL the smallest value), deterministic.
 */
import type { Value } from '../../types/values.js';
import { ExtremeAcc } from '../aggregate.js';

export class ArgExtremeAcc extends ExtremeAcc {
  override result(): Value {
    const best = super.result();
    return best === null ? null : (best as Value[])[2]!;
  }
}

/**
 * The triple a row adds for ARG_MAX (`sign` -1) or ARG_MIN (1): a NULL compared ranks below every other for
 * ARG_MAX and above every other for ARG_MIN, so it wins only where no compared is known.
 */
export function argExtremeEntry(sign: 1 | -1, compared: Value, value: Value): Value[] {
  const known = compared === null ? 0 : 1;
  return [sign < 0 ? known : 1 - known, compared, value];
}
