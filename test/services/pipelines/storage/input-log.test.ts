/**
 * The pipeline storage's files (storage/frames.ts, input-log.ts, checkpoints.ts) on a real folder: records read
 * back in order with their numbers across segments; a write torn by a crash ends the last segment there (and is
 * cut before the next run writes); damage before the last segment is an error naming the file; records a
 * process appended to a segment after a newer one began are not read; pruning keeps what replay needs; a
 * checkpoint file is whole or absent, and a damaged newest one is passed over for the one before it.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputLog, logDir, pruneLog, readLog, truncateTornTail, type LogRecord } from '../../../../src/services/pipelines/worker/storage/input-log.js';
import { checkpointDir, listCheckpoints, restoreNewest, writeCheckpoint } from '../../../../src/services/pipelines/shared/storage/checkpoints.js';
import { readFrames, writeFrame } from '../../../../src/services/pipelines/shared/storage/frames.js';
import { closeSync, openSync } from 'node:fs';

const dir = (): string => mkdtempSync(join(tmpdir(), 'ops-storage-'));

function all(storage: string, from = 0): Array<[number, LogRecord]> {
  const out: Array<[number, LogRecord]> = [];
  readLog(storage, from, (rec, lsn) => out.push([lsn, rec]));
  return out;
}

const meta = (lsn: number) => ({ uuid: `u${lsn}`, fingerprint: 'f', programVersion: 1, lsn, replayFrom: lsn, steps: lsn, processedRecords: 0, createdAt: '', connectors: {}, clockNow: null });

describe('frames', () => {
  it('a record written in parts (empty ones too) is the same bytes as written whole, and reads back whole', () => {
    const s = dir();
    const parts = [Buffer.from('head'), Buffer.alloc(0), Buffer.alloc(200_000, 7), Buffer.from('tail')];
    const write = (name: string, ...payload: Uint8Array[]): Buffer => {
      const fd = openSync(join(s, name), 'a');
      expect(writeFrame(fd, ...payload)).toBe(8 + 200_008);
      closeSync(fd);
      return readFileSync(join(s, name));
    };
    const inParts = write('parts', ...parts);
    expect(inParts.equals(write('whole', Buffer.concat(parts)))).toBe(true);
    const read: Buffer[] = [];
    expect(readFrames(join(s, 'parts'), (payload) => void read.push(Buffer.from(payload))).clean).toBe(true);
    expect(read).toEqual([Buffer.concat(parts)]);
  });
});

describe('input log', () => {
  it('reads records back in order with their numbers, across segments, from any point', () => {
    const s = dir();
    const log = new InputLog(s, 0);
    log.append({ t: 'run' });
    log.append({ t: 'job', id: 1, spec: { table: 'T', format: 'json' } });
    log.append({ t: 'chunk', id: 1, bytes: Buffer.from('{"insert":{"x":1}}') });
    log.append({ t: 'ingest', id: 1, txn: null, now: 1234 });
    log.rotate();
    log.append({ t: 'clock', now: 99 });
    log.close();
    const recs = all(s);
    expect(recs.map(([lsn, r]) => [lsn, r.t])).toEqual([
      [0, 'run'],
      [1, 'job'],
      [2, 'chunk'],
      [3, 'ingest'],
      [4, 'clock'],
    ]);
    expect(Buffer.from((recs[2]![1] as { bytes: Uint8Array }).bytes).toString()).toBe('{"insert":{"x":1}}');
    expect(recs[3]![1]).toEqual({ t: 'ingest', id: 1, txn: null, now: 1234 });
    expect(all(s, 3).map(([lsn]) => lsn)).toEqual([3, 4]);
    expect(readdirSync(logDir(s))).toHaveLength(2);
    // records wholly before 4 are dropped with their segment
    pruneLog(s, 4);
    expect(readdirSync(logDir(s))).toHaveLength(1);
    expect(all(s, 4).map(([lsn]) => lsn)).toEqual([4]);
  });

  it('a torn last record ends the log there, and is cut before a new segment follows it', () => {
    const s = dir();
    const log = new InputLog(s, 0);
    log.append({ t: 'run' });
    log.append({ t: 'clock', now: 1 });
    log.close();
    const [file] = readdirSync(logDir(s));
    const path = join(logDir(s), file!);
    truncateSync(path, statSync(path).size - 3);
    expect(all(s).map(([lsn]) => lsn)).toEqual([0]);
    truncateTornTail(s);
    const next = new InputLog(s, 1);
    next.append({ t: 'run' });
    next.close();
    expect(all(s).map(([lsn, r]) => [lsn, r.t])).toEqual([
      [0, 'run'],
      [1, 'run'],
    ]);
  });

  it('damage before the last segment is an error naming the file; records appended after a newer segment began are not read', () => {
    const s = dir();
    const a = new InputLog(s, 0);
    a.append({ t: 'run' });
    a.append({ t: 'clock', now: 1 });
    a.close();
    const b = new InputLog(s, 2);
    b.append({ t: 'run' });
    b.close();
    const first = join(logDir(s), readdirSync(logDir(s)).sort()[0]!);
    // an old process appended after the new segment began: ignored
    const late = new InputLog(s, 0);
    late.append({ t: 'clock', now: 999 });
    late.close();
    expect(all(s).map(([lsn, r]) => [lsn, r.t])).toEqual([
      [0, 'run'],
      [1, 'clock'],
      [2, 'run'],
    ]);
    // a byte flipped in the first segment
    const bytes = readFileSync(first);
    bytes[10]! ^= 0xff;
    writeFileSync(first, bytes);
    expect(() => all(s)).toThrow(new RegExp(`input log ${first.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged`));
  });
});

describe('checkpoint files', () => {
  it('the newest whole checkpoint is restored; a damaged one is passed over, saying which; a .tmp left by a crash is ignored', () => {
    const s = dir();
    writeCheckpoint(s, meta(5), (w) => [{ kind: 'a' }, { kind: 'b' }].forEach(w));
    writeCheckpoint(s, meta(9), (w) => [{ kind: 'c' }].forEach(w));
    writeFileSync(join(checkpointDir(s), 'ckpt-000000000003.ckpt.tmp'), 'half a checkpoint');
    const ok = restoreNewest(
      s,
      (m, parts) => ({ lsn: m.lsn, parts: [...parts] }),
      () => {},
    );
    expect(ok?.result).toEqual({ lsn: 9, parts: [{ kind: 'c' }] });
    expect(listCheckpoints(s).map((c) => c.meta.lsn)).toEqual([9, 5]);
    // cut the newest short: the one before it
    const newest = listCheckpoints(s)[0]!.path;
    truncateSync(newest, statSync(newest).size - 2);
    const damaged: string[] = [];
    const back = restoreNewest(
      s,
      (m, parts) => ({ lsn: m.lsn, parts: [...parts] }),
      (path, err) => damaged.push(`${path}: ${err.message}`),
    );
    expect(back?.result).toEqual({ lsn: 5, parts: [{ kind: 'a' }, { kind: 'b' }] });
    expect(damaged).toHaveLength(1);
    expect(damaged[0]).toContain(newest);
    // garbage where a checkpoint should be: not an ops checkpoint
    appendFileSync(join(checkpointDir(s), 'ckpt-000000000099.ckpt'), 'garbage garbage garbage');
    const notes: string[] = [];
    expect(
      restoreNewest(
        s,
        (m) => m.lsn,
        (_p, err) => notes.push(err.message),
      )?.result,
    ).toBe(5);
    expect(notes[0]).toMatch(/ckpt-000000000099\.ckpt/);
  });
});
