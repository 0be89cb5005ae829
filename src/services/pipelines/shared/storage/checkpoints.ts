/**
 * A pipeline's checkpoints on disk: `<storage>/checkpoints/ckpt-<ordinal>.ckpt`, each a framed file
 * (frames.ts) of its metadata, the circuit's state parts (engine Circuit.exportState, each v8-serialized)
 * and an end record counting them. Rules:
 * - A checkpoint is written to a `.tmp` file, flushed to disk (fsync), renamed into place and the folder
 *   flushed: a checkpoint file that exists is complete; a crash or a full disk leaves at most a `.tmp`, which
 *   the next write removes, and the previous checkpoint untouched.
 * - The newest checkpoint that reads back whole is the one a start resumes from; a damaged newest one is
 *   passed over (the caller is told which file and why) for the one before it. The newest KEEP are kept.
 * - Nothing here knows the engine: parts are opaque structured-clonable values.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { iterateFrames, writeFrame } from './frames.js';

/** Checkpoints kept: the newest and the one before it (the fallback when the newest is found damaged). */
export const KEEP = 2;
const FORMAT = 'ops-pipeline-checkpoint';
const VERSION = 1;

export interface CheckpointMeta {
  /** A UUID naming the checkpoint (Feldera's CheckpointMetadata.uuid). */
  uuid: string;
  /** Orders checkpoints: one more than the newest on disk. */
  ordinal: number;
  /** The program and casing it was taken of (a hash): a start with another program does not resume it as it is. */
  fingerprint: string;
  /** The program version, for messages. */
  programVersion: number;
  /** Every input-log record numbered below this is in the state. */
  lsn: number;
  /** Where replay starts (below lsn while a transaction was open: its held input is read again). */
  replayFrom: number;
  steps: number;
  processedRecords: number;
  createdAt: string;
  /** Input connectors' positions (endpoint name -> what the connector needs to go on). */
  connectors: Record<string, unknown>;
  /** NOW()'s value in the last step (null: none), where the pipeline's clock goes on from. */
  clockNow: number | null;
}

export interface StoredCheckpoint {
  path: string;
  meta: CheckpointMeta;
  bytes: number;
}

export class CheckpointDamaged extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`checkpoint ${path} is damaged: ${why}`);
  }
}

export function checkpointDir(storage: string): string {
  return join(storage, 'checkpoints');
}

function fileOf(dir: string, ordinal: number): string {
  return join(dir, `ckpt-${String(ordinal).padStart(12, '0')}.ckpt`);
}

/** The checkpoint files, newest first (names only: nothing read). */
function files(dir: string): Array<{ path: string; ordinal: number }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Array<{ path: string; ordinal: number }> = [];
  for (const name of names) {
    const m = /^ckpt-(\d{12})\.ckpt$/.exec(name);
    if (m) out.push({ path: join(dir, name), ordinal: Number(m[1]) });
  }
  return out.sort((a, b) => b.ordinal - a.ordinal);
}

export function nextOrdinal(storage: string): number {
  return (files(checkpointDir(storage))[0]?.ordinal ?? 0) + 1;
}

/**
 * Writes a checkpoint: `meta` then every part `exportState` hands over, then the end record; durable when it
 * returns. Throws what the file system throws (ENOSPC, EIO), having removed its partial file.
 */
export function writeCheckpoint(storage: string, meta: Omit<CheckpointMeta, 'ordinal'>, exportState: (write: (part: unknown) => void) => void): StoredCheckpoint {
  const dir = checkpointDir(storage);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  const ordinal = nextOrdinal(storage);
  const full: CheckpointMeta = { ...meta, ordinal };
  const path = fileOf(dir, ordinal);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  let bytes = 0;
  try {
    bytes += writeFrame(fd, serialize({ format: FORMAT, version: VERSION, meta: full }));
    let parts = 0;
    exportState((part) => {
      bytes += writeFrame(fd, serialize(part));
      parts++;
    });
    bytes += writeFrame(fd, serialize({ end: true, parts }));
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  syncDir(dir);
  return { path, meta: full, bytes };
}

/** Flushes a folder's entries (a rename or an unlink) to disk. */
export function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The first record of a checkpoint file: its metadata; throws CheckpointDamaged. */
function readMeta(path: string, first: Buffer | undefined): CheckpointMeta {
  let head: { format?: unknown; version?: unknown; meta?: CheckpointMeta };
  try {
    head = deserialize(first ?? Buffer.alloc(0)) as typeof head;
  } catch {
    throw new CheckpointDamaged(path, 'its first record cannot be read');
  }
  if (head?.format !== FORMAT) throw new CheckpointDamaged(path, 'it is not an ops pipeline checkpoint');
  if (head.version !== VERSION) throw new CheckpointDamaged(path, `it is of format version ${String(head.version)}; this ops reads version ${VERSION} (written by another version of ops)`);
  return head.meta!;
}

/** Every checkpoint's metadata, newest first (those whose metadata cannot be read are left out). */
export function listCheckpoints(storage: string): StoredCheckpoint[] {
  const out: StoredCheckpoint[] = [];
  for (const f of files(checkpointDir(storage))) {
    try {
      const it = iterateFrames(f.path);
      const first = it.next();
      it.return?.({ clean: true, damagedAt: 0 });
      out.push({ path: f.path, meta: readMeta(f.path, first.done ? undefined : first.value), bytes: statSync(f.path).size });
    } catch {
      // damaged: not listed
    }
  }
  return out;
}

/**
 * The newest checkpoint that reads back whole, given to `restore` with its parts (read lazily, each
 * deserialized; a damaged record throws CheckpointDamaged from the iteration). When `restore` throws
 * CheckpointDamaged (or the engine refuses the parts), `onDamaged` hears of it and the one before it is
 * tried. Answers restore's result, or null when there is no usable checkpoint.
 */
export function restoreNewest<T>(
  storage: string,
  restore: (meta: CheckpointMeta, parts: Iterable<unknown>) => T,
  onDamaged: (path: string, err: Error) => void,
): { checkpoint: StoredCheckpoint; result: T } | null {
  for (const f of files(checkpointDir(storage))) {
    try {
      const it = iterateFrames(f.path);
      const first = it.next();
      const meta = readMeta(f.path, first.done ? undefined : first.value);
      let ended = false;
      const parts = (function* (): Generator<unknown> {
        for (;;) {
          const r = it.next();
          if (r.done) {
            if (!ended) throw new CheckpointDamaged(f.path, r.value.clean ? 'it ends before its end record' : `a record at byte ${r.value.damagedAt} is cut short or fails its checksum`);
            return;
          }
          let value: unknown;
          try {
            value = deserialize(r.value);
          } catch {
            throw new CheckpointDamaged(f.path, 'a record cannot be read');
          }
          if (value !== null && typeof value === 'object' && (value as { end?: unknown }).end === true) {
            ended = true;
            continue;
          }
          if (ended) throw new CheckpointDamaged(f.path, 'records follow its end record');
          yield value;
        }
      })();
      const result = restore(meta, parts);
      // the whole file must have been read and found whole
      for (const _ of parts) void _;
      return { checkpoint: { path: f.path, meta, bytes: statSync(f.path).size }, result };
    } catch (err) {
      onDamaged(f.path, err as Error);
    }
  }
  return null;
}

/** Removes all but the newest KEEP checkpoints. */
export function pruneCheckpoints(storage: string): void {
  for (const f of files(checkpointDir(storage)).slice(KEEP)) rmSync(f.path, { force: true });
}
