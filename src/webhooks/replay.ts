/**
 * `ops hook replay`: pick stored events (from a receiver's EventStore or from a file of envelopes)
 * and re-send each one, signed, to a URL; report every response.
 */
import { serializeEnvelope, validateEnvelope } from './envelope.js';
import type { EventStore } from './event-store.js';
import { sendSigned, type AttemptResult } from './send.js';

export interface ReplayItem {
  id: string;
  type: string;
  /** Envelope timestamp (ISO) */
  timestamp: string;
  /** When the receiver got it (ms), if known */
  receivedAt?: number;
  body: Buffer;
}

export interface ReplayFilter {
  id?: string;
  type?: string;
  /** ms since the epoch: received (or, for file items without that, stamped) at or after */
  since?: number;
}

export interface ReplayOutcome extends AttemptResult {
  id: string;
  type: string;
  url: string;
}

export function itemsFromStore(store: EventStore, filter: ReplayFilter = {}): ReplayItem[] {
  return store.list(filter).map((e) => ({ id: e.id, type: e.type, timestamp: e.timestamp, receivedAt: e.receivedAt, body: e.body }));
}

/**
 * Reads envelopes from text: a JSON array of envelopes, or one JSON value per line (envelopes, or
 * the records `ops hook serve --json` prints, whose ready and stopped lines are skipped). Throws with the line
 * number on anything else.
 */
export function itemsFromText(text: string): ReplayItem[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  let values: { value: unknown; where: string }[];
  if (trimmed.startsWith('[')) {
    let arr: unknown;
    try {
      arr = JSON.parse(trimmed);
    } catch {
      throw new Error('the file starts with [ but is not a valid JSON array');
    }
    values = (arr as unknown[]).map((value, i) => ({ value, where: `item ${i + 1}` }));
  } else {
    values = [];
    const lines = text.split(/\r?\n/);
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        values.push({ value: JSON.parse(line), where: `line ${i + 1}` });
      } catch {
        throw new Error(`line ${i + 1} is not valid JSON`);
      }
    });
  }
  const items: ReplayItem[] = [];
  for (const { value, where } of values) {
    const v = value as Record<string, unknown> | null;
    // lines of `ops hook serve --json` other than received events (ready, stopped) are skipped
    if (v && typeof v === 'object' && typeof v.event === 'string' && v.event !== 'received') continue;
    const r = validateEnvelope(v);
    if (!r.ok) throw new Error(`${where}: ${r.error}`);
    const receivedAt = typeof v?.receivedAt === 'string' ? Date.parse(v.receivedAt) : NaN;
    items.push({
      id: r.envelope.id,
      type: r.envelope.type,
      timestamp: r.envelope.timestamp,
      ...(Number.isFinite(receivedAt) ? { receivedAt } : {}),
      body: serializeEnvelope(r.envelope),
    });
  }
  return items;
}

export function filterItems(items: ReplayItem[], f: ReplayFilter): ReplayItem[] {
  return items.filter((it) => {
    if (f.id !== undefined && it.id !== f.id) return false;
    if (f.type !== undefined && it.type !== f.type) return false;
    if (f.since !== undefined) {
      const at = it.receivedAt ?? Date.parse(it.timestamp);
      if (!Number.isFinite(at) || at < f.since) return false;
    }
    return true;
  });
}

export interface ReplayOptions {
  to: string;
  secret: string | Buffer;
  timeoutMs?: number;
  onResult?: (outcome: ReplayOutcome) => void;
}

/** Sends the items one after another (in order); returns every outcome. */
export async function replay(items: ReplayItem[], opts: ReplayOptions): Promise<ReplayOutcome[]> {
  const out: ReplayOutcome[] = [];
  for (const it of items) {
    const r = await sendSigned({
      url: opts.to,
      body: it.body,
      secret: opts.secret,
      timeoutMs: opts.timeoutMs,
      headers: { 'x-ops-event-id': it.id, 'x-ops-event-type': it.type, 'x-ops-replay': '1' },
    });
    const outcome: ReplayOutcome = { id: it.id, type: it.type, url: opts.to, ...r };
    out.push(outcome);
    opts.onResult?.(outcome);
  }
  return out;
}

/**
 * Parses a --since value: an ISO date/time, or a duration back from now (`30s`, `15m`, `2h`, `7d`).
 * Returns ms since the epoch, or null when unreadable.
 */
export function parseSince(value: string, now: number = Date.now()): number | null {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(value.trim());
  if (m) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
    return now - Number(m[1]) * unit;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}
