import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { columnType, toMessage } from '../../../../src/services/pipelines/worker/compiler.js';
import { fetchSource } from '../../../../src/services/pipelines/worker/connectors/input.js';
import { defaultRuntimeConfig, uuidv7 } from '../../../../src/services/pipelines/control/model.js';

describe('program_info column types', () => {
  it('maps the engine type text to Feldera columntype objects', () => {
    expect(columnType('INTEGER', true)).toEqual({ type: 'INTEGER', nullable: true });
    expect(columnType('DECIMAL(10, 2)', false)).toEqual({ type: 'DECIMAL', nullable: false, precision: 10, scale: 2 });
    expect(columnType('DECIMAL', true)).toEqual({ type: 'DECIMAL', nullable: true, scale: 0 });
    expect(columnType('VARCHAR(20)', true)).toEqual({ type: 'VARCHAR', nullable: true, precision: 20 });
    expect(columnType('INTEGER ARRAY', true)).toEqual({ type: 'ARRAY', nullable: true, component: { type: 'INTEGER', nullable: true } });
    expect(columnType('MAP<VARCHAR, INTEGER>', false)).toMatchObject({ type: 'MAP', key: { type: 'VARCHAR' }, value: { type: 'INTEGER' } });
  });
});

describe('SQL compiler messages', () => {
  it('carry 1-based positions and a snippet pointing at the column', () => {
    const code = 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT y FROM t;\n';
    const m = toMessage(code, { message: "Unknown column 'y'", line: 2, column: 25, kind: 'unknown_column' });
    expect(m).toMatchObject({ start_line_number: 2, start_column: 25, end_line_number: 2, warning: false, error_type: 'Compilation error' });
    const [text, caret] = m.snippet!.split('\n');
    expect(text).toBe('    2|CREATE VIEW v AS SELECT y FROM t;');
    expect(caret!.indexOf('^')).toBe(text!.indexOf('y FROM'));
    expect(toMessage(code, { message: 'x', line: 1, column: 1, kind: 'syntax' }).error_type).toBe('Error parsing SQL');
  });
});

describe('model helpers', () => {
  it('runtime_config defaults are filled in; resources members default to null', () => {
    const rc = defaultRuntimeConfig({ workers: 4, resources: { memory_mb_max: 100 } });
    expect(rc).toMatchObject({ workers: 4, storage: false, cpu_profiler: true, min_batch_size_records: 0, min_storage_bytes: null });
    expect(rc.resources).toEqual({ cpu_cores_min: null, cpu_cores_max: null, memory_mb_min: null, memory_mb_max: 100, storage_mb_max: null, storage_class: null });
  });
  it('ids are time-ordered UUIDv7s', () => {
    const a = uuidv7();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7() >= a.slice(0, 13)).toBe(true);
  });
});

describe('connector sources', () => {
  it('reads file: URLs and plain paths; refuses other schemes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-src-'));
    const f = join(dir, 'a.json');
    writeFileSync(f, '{"x":1}');
    const access = { root: dir, fetchPolicy: 'any' as const, maxBytes: 1024 };
    expect(await fetchSource(pathToFileURL(f).href, access)).toBe('{"x":1}');
    expect(await fetchSource(f, access)).toBe('{"x":1}');
    expect(await fetchSource('a.json', access)).toBe('{"x":1}');
    await expect(fetchSource('ftp://example.com/x', access)).rejects.toThrow(/unsupported URL scheme/);
    await expect(fetchSource(join(dir, 'missing.json'), access)).rejects.toThrow(/does not exist under the connector root/);
  });
});
