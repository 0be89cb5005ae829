import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventStore } from '../../src/webhooks/event-store.js';

describe('EventStore', () => {
  it('records, de-duplicates, lists by filter and prunes', () => {
    const s = new EventStore(join(mkdtempSync(join(tmpdir(), 'ops-es-')), 'nested', 'e.db'));
    const ev = (id: string, type: string) => ({ id, type, timestamp: '2026-01-01T00:00:00Z' });
    expect(s.record(ev('a', 'user.created'), Buffer.from('A'), 1000)).toEqual({ duplicate: false });
    expect(s.record(ev('b', 'payment.failed'), Buffer.from('B'), 2000)).toEqual({ duplicate: false });
    expect(s.record(ev('a', 'user.created'), Buffer.from('A2'), 3000)).toEqual({ duplicate: true });
    expect(s.get('a')).toMatchObject({ deliveries: 2, receivedAt: 1000 });
    expect(s.get('a')!.body.toString()).toBe('A');
    expect(s.list().map((e) => e.id)).toEqual(['a', 'b']);
    expect(s.list({ type: 'payment.failed' }).map((e) => e.id)).toEqual(['b']);
    expect(s.list({ since: 1500 }).map((e) => e.id)).toEqual(['b']);
    expect(s.list({ id: 'a' })).toHaveLength(1);
    expect(s.list({ limit: 1 })).toHaveLength(1);
    expect(s.prune(1500)).toBe(1);
    expect(s.count()).toBe(1);
    s.close();
  });
});

describe('EventStore log', () => {
  it('survives reopening, skips a line cut short by a crash, and keeps exact bytes', async () => {
    const { appendFileSync } = await import('node:fs');
    const file = join(mkdtempSync(join(tmpdir(), 'ops-es-')), 'events.ndjson');
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]); // not valid UTF-8: kept as is
    const a = new EventStore(file);
    a.record({ id: 'x', type: 't', timestamp: 'ts' }, bytes, 5);
    a.record({ id: 'x', type: 't', timestamp: 'ts' }, bytes, 6);
    a.close();
    appendFileSync(file, '{"id":"torn","type":"t","bo');
    const b = new EventStore(file);
    expect(b.count()).toBe(1);
    expect(b.get('x')).toMatchObject({ deliveries: 2, receivedAt: 5 });
    expect(b.get('x')!.body.equals(bytes)).toBe(true);
    expect(b.record({ id: 'x', type: 't', timestamp: 'ts' }, bytes, 7).duplicate).toBe(true);
    expect(b.record({ id: 'y', type: 't', timestamp: 'ts' }, Buffer.from('{}'), 8).duplicate).toBe(false);
    expect(b.prune(8)).toBe(1);
    b.close();
    const c = new EventStore(file);
    expect(c.list().map((e) => e.id)).toEqual(['y']);
    c.close();
  });
});
