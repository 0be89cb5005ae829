import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';

describe('smoke', () => {
  it('hello world', () => {
    const r = compile(
      `
CREATE TABLE messages (id INTEGER, message STRING);
CREATE TABLE records (id INTEGER, message STRING);
CREATE VIEW matches AS
SELECT messages.message || ' ' || records.message AS combined
FROM messages JOIN records ON messages.id = records.id;
CREATE VIEW cnt AS SELECT COUNT(*) AS c, SUM(id) s FROM messages;
`,
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const s1 = c.step([1, 2, 3, 4, 5].map((id, i) => ({ table: 'messages', op: 'csv' as const, fields: [String(id), ['a', 'b', 'c', 'Hello', 'd'][i]!] })));
    expect(s1.changes.get('cnt')).toEqual([
      { row: { c: 0, s: null }, weight: -1 },
      { row: { c: 5, s: 15 }, weight: 1 },
    ]);
    expect(s1.changes.get('messages')).toHaveLength(5);
    expect(s1.changes.has('matches')).toBe(false);
    const s2 = c.step([
      { table: 'records', op: 'csv', fields: ['8', 'x'] },
      { table: 'RECORDS', op: 'insert', row: { ID: 4, message: 'world!' } },
    ]);
    expect(s2.changes.get('matches')).toEqual([{ row: { combined: 'Hello world!' }, weight: 1 }]);
    expect(s2.changes.has('cnt')).toBe(false);
    expect(c.contents('matches')).toEqual([{ row: { combined: 'Hello world!' }, weight: 1 }]);
    expect(c.contents('CNT')).toEqual([{ row: { c: 5, s: 15 }, weight: 1 }]);
  });
});
