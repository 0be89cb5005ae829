/**
 * A pipeline's input log (journal): every input that changes the circuit, written before it is applied, so
 * that what a client was told is applied survives a crash of the server or of the pipeline's process.
 * Segments `<storage>/log/log-<first lsn>.seg` of framed records (frames.ts); records are numbered (lsn)
 * across segments in the order written.
 *
 * Rules:
 * - An ingress body's bytes are logged as they arrive (`chunk`, under the request's id within the run), so
 *   nothing is held in memory for the log; its `ingest` record (apply, or hold in a transaction) is written
 *   once the body parsed without errors and before the step, and `sync()` makes it durable before the
 *   answer. A body without an `ingest` record (aborted, refused while parsing) is never applied on replay.
 * - A step's record carries the value NOW() had for it, so replay steps exactly as the run did. A step the
 *   engine refused is followed by `refused`; replay may skip it (it would be refused again anyway).
 * - Each start of the pipeline writes into a new segment; a checkpoint starts a new one too, and segments
 *   wholly before the replay point of the newest kept checkpoint are deleted.
 * - Reading stops at the first damaged record of the last segment (a write torn by a crash: nothing after it
 *   was acknowledged); damage in an earlier segment is an error naming the file.
 */
import { closeSync, fdatasyncSync, mkdirSync, openSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { readFrames, writeFrame } from '../../shared/storage/frames.js';
import { syncDir } from '../../shared/storage/checkpoints.js';

export interface LoggedIngestSpec {
  table: string;
  format: string;
  updateFormat?: string;
  array?: boolean;
}

export type LogRecord =
  /** An ingress request began (its body's chunks follow, maybe interleaved with other requests'). */
  | { t: 'job'; id: number; spec: LoggedIngestSpec }
  | { t: 'chunk'; id: number; bytes: Uint8Array }
  /** The request's body is applied as one step (txn null) or held by transaction `txn`. */
  | { t: 'ingest'; id: number; txn: number | null; now: number | null }
  /** A transaction opened. */
  | { t: 'txn'; id: number }
  /** The open transaction's commit: everything it held as one step. */
  | { t: 'commit'; txn: number; now: number | null }
  /** A step of the clock alone. */
  | { t: 'clock'; now: number | null }
  /** An ad-hoc INSERT statement. */
  | { t: 'insert'; sql: string; now: number | null }
  /** The step just logged was refused by the engine: nothing of it applied. */
  | { t: 'refused' }
  /** A run of the pipeline begins (request ids start again). */
  | { t: 'run' };

const CHUNK = 1;
const OTHER = 0;

/** A record's payload, in parts (a chunk's bytes are not copied: the frame is written from them). */
function encode(rec: LogRecord): Uint8Array[] {
  if (rec.t === 'chunk') {
    const head = Buffer.allocUnsafe(5);
    head[0] = CHUNK;
    head.writeUInt32LE(rec.id >>> 0, 1);
    return [head, rec.bytes];
  }
  const body = serialize(rec);
  const out = Buffer.allocUnsafe(1 + body.byteLength);
  out[0] = OTHER;
  out.set(body, 1);
  return [out];
}

function decode(payload: Buffer): LogRecord {
  if (payload[0] === CHUNK) return { t: 'chunk', id: payload.readUInt32LE(1), bytes: payload.subarray(5) };
  if (payload[0] !== OTHER) throw new Error('an unknown record type');
  return deserialize(payload.subarray(1)) as LogRecord;
}

export class LogDamaged extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`input log ${path} is damaged: ${why}`);
  }
}

export function logDir(storage: string): string {
  return join(storage, 'log');
}

function segments(dir: string): Array<{ path: string; first: number }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Array<{ path: string; first: number }> = [];
  for (const name of names) {
    const m = /^log-(\d{16})\.seg$/.exec(name);
    if (m) out.push({ path: join(dir, name), first: Number(m[1]) });
  }
  return out.sort((a, b) => a.first - b.first);
}

/**
 * Reads every record numbered `from` or later, in order, with its lsn; answers the next lsn (one past the
 * last good record). Throws LogDamaged for damage before the last segment.
 */
export function readLog(storage: string, from: number, visit: (rec: LogRecord, lsn: number) => void): number {
  const segs = segments(logDir(storage));
  let next = from;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const following = segs[i + 1];
    if (following && following.first <= from) continue; // wholly before `from`
    // a segment ends where the next begins: anything after that in it was written by a process that went on
    // after a newer one had started (a pipeline process outliving its server by a moment), never acknowledged
    const end = following ? following.first : Infinity;
    let lsn = seg.first;
    const reading = readFrames(seg.path, (payload) => {
      if (lsn >= end) return;
      let rec: LogRecord;
      try {
        rec = decode(payload);
      } catch {
        throw new LogDamaged(seg.path, `record ${lsn} cannot be read`);
      }
      if (lsn >= from) visit(rec, lsn);
      lsn++;
    });
    if (!reading.clean && following && lsn < end) throw new LogDamaged(seg.path, `a record at byte ${reading.damagedAt} is cut short or fails its checksum, and later segments follow it`);
    if (following && lsn < end) throw new LogDamaged(following.path, `it starts at record ${following.first}, after the end of the segment before it (${lsn}): records are missing`);
    next = Math.max(next, lsn);
  }
  return next;
}

/** Cuts the last segment after its last good record (a write torn by a crash), so later segments can follow it. */
export function truncateTornTail(storage: string): void {
  const segs = segments(logDir(storage));
  const last = segs[segs.length - 1];
  if (!last) return;
  const reading = readFrames(last.path, () => {});
  if (!reading.clean) truncateSync(last.path, reading.damagedAt);
}

/** Deletes the segments whose every record is numbered below `lsn`. */
export function pruneLog(storage: string, lsn: number): void {
  const segs = segments(logDir(storage));
  for (let i = 0; i + 1 < segs.length; i++) if (segs[i + 1]!.first <= lsn) rmSync(segs[i]!.path, { force: true });
}

/** The log being written: appends records to the current segment. */
export class InputLog {
  private fd: number;
  private next: number;
  /** Whether records were written since the last sync. */
  private dirty = false;
  bytes = 0;

  /** Opens a new segment whose first record is `lsn` (the pipeline's start or a checkpoint). */
  constructor(
    private readonly storage: string,
    lsn: number,
  ) {
    this.next = lsn;
    this.fd = this.open(lsn);
  }

  private open(lsn: number): number {
    const dir = logDir(this.storage);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(join(dir, `log-${String(lsn).padStart(16, '0')}.seg`), 'a', 0o600);
    syncDir(dir);
    return fd;
  }

  /** The number the next record gets. */
  get lsn(): number {
    return this.next;
  }

  /** Appends a record (not yet durable: see sync); answers its lsn. Throws what the write throws (ENOSPC). */
  append(rec: LogRecord): number {
    this.bytes += writeFrame(this.fd, ...encode(rec));
    this.dirty = true;
    return this.next++;
  }

  /** Makes every record appended so far durable. */
  sync(): void {
    if (!this.dirty) return;
    fdatasyncSync(this.fd);
    this.dirty = false;
  }

  /** Goes on in a new segment (after a checkpoint), the current one synced and closed. */
  rotate(): void {
    this.sync();
    const fd = this.open(this.next);
    closeSync(this.fd);
    this.fd = fd;
  }

  close(): void {
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
    }
  }
}
