/**
 * The live part of this thread's V8 heap, for the memory guards of a pipeline's worker (ad-hoc queries,
 * transactions). The heap's used size counts garbage not yet collected as well, so a guard that finds it too
 * high asks again after a full collection before it refuses anything: garbage left by earlier work must not
 * refuse what fits.
 *
 * Rules: usedHeapBytes() is V8's used heap size now; liveHeapBytes() collects first when it can (V8's gc,
 * reached through --expose-gc when this module loads; where that is not possible, the used size).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's gc function, or null where it cannot be had. Taken when this module loads (a worker's start), not
 * when first needed: then the heap may be at its limit, and the new context it takes to reach gc could be
 * the allocation that ends the worker.
 */
const collect: (() => void) | null = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
})();

/** The used heap now (garbage included). */
export function usedHeapBytes(): number {
  return getHeapStatistics().used_heap_size;
}

/** The used heap after a full collection (the used heap when no collection can be asked for). */
export function liveHeapBytes(): number {
  collect?.();
  return getHeapStatistics().used_heap_size;
}
