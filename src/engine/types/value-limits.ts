/**
 * The largest value a function may build: MAX_VALUE_SIZE characters for a string, bytes for a binary value,
 * elements for an array. Past it (REPEAT('x', 1000000000), LPAD('x', 2000000000, 'ab'), ARRAY_REPEAT(1,
 * 100000000), a GUNZIP that inflates to gigabytes) the function throws ValueTooLarge naming itself, the size it
 * would have built and the limit, before building it: the step is refused whole (ingress answers 422) or the
 * ad-hoc query answered 400, as for an integer overflow, where JavaScript would have failed with "Invalid
 * string length" (a 500) or run the worker out of memory.
 *
 * Rules: a function that can build past the limit checks the size it will build (checkSize) before building
 * it, or while building it when the size is known only then; functions whose result is no larger than their
 * largest argument need no check. ValueTooLarge is an IntOverflow (a value that does not fit its type), so
 * the circuit refuses the step with it as with any overflow.
 */
import { IntOverflow } from './int64.js';
import { workDone } from '../step-guard.js';

/** 16 Mi: characters of a string, bytes of a binary value, elements of an array. */
export const MAX_VALUE_SIZE = 16 * 1024 * 1024;

export type SizeUnit = 'characters' | 'bytes' | 'elements';

const TYPE_OF_UNIT: Record<SizeUnit, string> = { characters: 'VARCHAR', bytes: 'VARBINARY', elements: 'ARRAY' };

/** A function's result past MAX_VALUE_SIZE: the step is refused, nothing is built. */
export class ValueTooLarge extends IntOverflow {
  constructor(fn: string, size: number | null, unit: SizeUnit) {
    const what = size === null ? `more than ${MAX_VALUE_SIZE} ${unit}` : `${size} ${unit}`;
    super(fn, TYPE_OF_UNIT[unit], `value too large: ${fn} would build ${what}, past the limit of ${MAX_VALUE_SIZE} ${unit} (16 Mi) for one value`);
    this.name = 'ValueTooLarge';
  }
}

/**
 * Throws ValueTooLarge when `size` (of `fn`'s result, in `unit`) is past the limit; else counts it as the
 * running step's work (step-guard.ts), so that a guarded step building many big values is checked in time.
 */
export function checkSize(fn: string, size: number, unit: SizeUnit): void {
  if (size > MAX_VALUE_SIZE) throw new ValueTooLarge(fn, size, unit);
  workDone(size);
}
