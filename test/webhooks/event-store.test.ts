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
