/**
 * The receiver's durable store of received events (`ops hook serve`, `ops hook replay`):
 * de-duplication by envelope id that survives restarts, and the exact bytes kept for replay.
 *
 * An append-only NDJSON log: one line per new event, a short line per duplicate; loaded into
 * memory when opened. Recording is one write() of one line before the receiver answers, so it
 * survives a crash of the process; a line cut short by a crash is skipped when the log is read.
 * (A B-tree store cost several times more per request: random-key inserts into a growing index.)
 * One receiver writes a store at a time; others (replay) may read it meanwhile.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StoredEvent {
  id: string;
  type: string;
  /** The envelope's own timestamp (as sent). */
  timestamp: string;
  /** When this receiver first got it (ms since the epoch). */
  receivedAt: number;
  /** How many times it was received (1 + duplicates). */
  deliveries: number;
  /** The exact bytes received. */
  body: Buffer;
}

export interface EventQuery {
  id?: string;
  type?: string;
  /** Received at or after (ms since the epoch). */
  since?: number;
  limit?: number;
}

/** Keep received ids for a week by default: far beyond the ~2.6 h retry window. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;

interface EventLine {
  id: string;
  type: string;
  timestamp: string;
  receivedAt: number;
  /** base64 of the exact bytes */
  body: string;
}

const lineOf = (e: StoredEvent): string => JSON.stringify({ id: e.id, type: e.type, timestamp: e.timestamp, receivedAt: e.receivedAt, body: e.body.toString('base64') } satisfies EventLine) + '\n';

export class EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly order: StoredEvent[] = [];
  private fd: number | null = null;

  /** `file` is the log's path, or ':memory:' for a store that keeps nothing on disk. */
  constructor(readonly file: string) {
    if (file === ':memory:') return;
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file)) this.load(readFileSync(file, 'utf8'));
    this.fd = openSync(file, 'a', 0o600);
  }

  private load(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let v: Partial<EventLine> & { dup?: string };
      try {
        v = JSON.parse(line) as typeof v;
      } catch {
        continue; // a line cut short by a crash
      }
      if (typeof v.dup === 'string') {
        const e = this.events.get(v.dup);
        if (e) e.deliveries++;
        continue;
      }
      if (typeof v.id !== 'string' || typeof v.body !== 'string' || this.events.has(v.id)) continue;
      const e: StoredEvent = {
        id: v.id,
        type: String(v.type ?? ''),
        timestamp: String(v.timestamp ?? ''),
        receivedAt: Number(v.receivedAt ?? 0),
        deliveries: 1,
        body: Buffer.from(v.body, 'base64'),
      };
      this.events.set(e.id, e);
      this.order.push(e);
    }
  }

  private append(text: string): void {
    if (this.fd !== null) writeSync(this.fd, text);
  }

  /** Records an event; `duplicate` when its id was seen before (then only the count changes). */
  record(event: { id: string; type: string; timestamp: string }, body: Buffer, receivedAt: number): { duplicate: boolean } {
    const seen = this.events.get(event.id);
    if (seen) {
      this.append(JSON.stringify({ dup: event.id, at: receivedAt }) + '\n');
      seen.deliveries++;
      return { duplicate: true };
    }
    const e: StoredEvent = { id: event.id, type: event.type, timestamp: event.timestamp, receivedAt, deliveries: 1, body };
    this.append(lineOf(e));
    this.events.set(e.id, e);
    this.order.push(e);
    return { duplicate: false };
  }

  /**
   * record() for several events with one write (a group commit): duplicates within the batch are
   * told apart in order, as if recorded one by one.
   */
  recordMany(items: { event: { id: string; type: string; timestamp: string }; body: Buffer; receivedAt: number }[]): { duplicate: boolean }[] {
    const fd = this.fd;
    this.fd = null; // collect instead of writing each line
    const pending: string[] = [];
    const results = items.map((it) => {
      const seen = this.events.get(it.event.id);
      if (seen) {
        pending.push(JSON.stringify({ dup: it.event.id, at: it.receivedAt }) + '\n');
        seen.deliveries++;
        return { duplicate: true };
      }
      const e: StoredEvent = { id: it.event.id, type: it.event.type, timestamp: it.event.timestamp, receivedAt: it.receivedAt, deliveries: 1, body: it.body };
      pending.push(lineOf(e));
      this.events.set(e.id, e);
      this.order.push(e);
      return { duplicate: false };
    });
    const text = pending.join('');
    this.fd = fd;
    this.append(text);
    return results;
  }

  get(id: string): StoredEvent | undefined {
    return this.events.get(id);
  }

  /** Events in the order received, filtered. */
  list(q: EventQuery = {}): StoredEvent[] {
    const out = this.order.filter((e) => (q.id === undefined || e.id === q.id) && (q.type === undefined || e.type === q.type) && (q.since === undefined || e.receivedAt >= q.since));
    return q.limit !== undefined ? out.slice(0, Math.max(0, Math.floor(q.limit))) : out;
  }

  count(): number {
    return this.order.length;
  }

  /** Forgets events received before `before` (ms): the log is rewritten without them. Returns how many. */
  prune(before: number): number {
    const keep = this.order.filter((e) => e.receivedAt >= before);
    const removed = this.order.length - keep.length;
    if (removed === 0) return 0;
    for (const e of this.order) if (e.receivedAt < before) this.events.delete(e.id);
    this.order.splice(0, this.order.length, ...keep);
    if (this.fd !== null) {
      const tmp = `${this.file}.${process.pid}.tmp`;
      const dupLines = keep.flatMap((e) => Array.from({ length: e.deliveries - 1 }, () => JSON.stringify({ dup: e.id, at: e.receivedAt }) + '\n'));
      writeFileSync(tmp, keep.map(lineOf).join('') + dupLines.join(''), { mode: 0o600 });
      closeSync(this.fd);
      renameSync(tmp, this.file);
      this.fd = openSync(this.file, 'a', 0o600);
    }
    return removed;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
