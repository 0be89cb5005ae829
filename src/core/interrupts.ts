/**
 * Ctrl-C (SIGINT) while a command is in a phase it wants to end cleanly, e.g. between two batches of an ingest.
 * While watched, the first SIGINT does not kill the process: it resolves `first` (the command finishes the step in
 * flight, then says where it stopped); a second one resolves `second` (the command stops waiting at once and says
 * what may be half done). `dispose()` gives SIGINT back to its default (the process is killed, exit 130).
 */
export interface Interrupts {
  /** Resolves at the first SIGINT. */
  readonly first: Promise<void>;
  /** Resolves at the second SIGINT. */
  readonly second: Promise<void>;
  readonly count: number;
  dispose(): void;
}

export function watchInterrupts(target: NodeJS.EventEmitter = process): Interrupts {
  let count = 0;
  let resolveFirst!: () => void;
  let resolveSecond!: () => void;
  const first = new Promise<void>((resolve) => (resolveFirst = resolve));
  const second = new Promise<void>((resolve) => (resolveSecond = resolve));
  const onSignal = () => {
    count++;
    if (count === 1) resolveFirst();
    else resolveSecond();
  };
  target.on('SIGINT', onSignal);
  return {
    first,
    second,
    get count() {
      return count;
    },
    dispose: () => void target.off('SIGINT', onSignal),
  };
}
