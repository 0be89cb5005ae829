/** bind/compile-session.ts: one compile's ids, names, positions and statement scope, held by the session alone. */
import { describe, expect, it } from 'vitest';
import { CompileSession, type CallableFunctions } from '../../../src/engine/bind/compile-session.js';
import { constant } from '../../../src/engine/bind/bexpr.js';
import { mk } from '../../../src/engine/types/types.js';
import { bindProgram } from '../../../src/engine/bind/program.js';
import { planLines, planOf } from '../../helpers/plan.js';

const values = { kind: 'values' as const, inputs: [] as [], columns: [], make: () => undefined as never };

describe('CompileSession', () => {
  it('numbers plan nodes from 1 in creation order, each session on its own', () => {
    const a = new CompileSession('');
    const b = new CompileSession('');
    expect([a.node(values).id, a.node(values).id]).toEqual([1, 2]);
    expect(b.node(values).id).toBe(1);
    expect(a.node(values).id).toBe(3);
  });

  it('names decorrelated relations $D1, $D2, ... per session', () => {
    const a = new CompileSession('');
    expect([a.decorrelatedName(), a.decorrelatedName()]).toEqual(['$D1', '$D2']);
    expect(new CompileSession('').decorrelatedName()).toBe('$D1');
  });

  it('gives 1-based lines and columns of offsets in its source, past the end the end', () => {
    const s = new CompileSession('ab\ncd\n\nx');
    expect(s.posAt(0)).toEqual({ line: 1, column: 1 });
    expect(s.posAt(3)).toEqual({ line: 2, column: 1 });
    expect(s.posAt(4)).toEqual({ line: 2, column: 2 });
    expect(s.posAt(7)).toEqual({ line: 4, column: 1 });
    expect(s.posAt(99)).toEqual({ line: 4, column: 2 });
  });

  it('has the user types and functions of a statement in scope only inside inStatement, nested scopes restored', () => {
    const s = new CompileSession('');
    const one: CallableFunctions = { call: (name) => (name === 'ONE' ? constant(mk('INTEGER', false), 1) : undefined) };
    const none: CallableFunctions = { call: () => undefined };
    const t = mk('BOOLEAN');
    expect(s.userTypes).toBeUndefined();
    s.inStatement(
      () => t,
      one,
      () => {
        expect(s.userTypes?.('X', false)).toBe(t);
        expect(s.userFunctionCall('ONE', [], { line: 1, column: 1 })?.fn([])).toBe(1);
        s.inStatement(
          () => undefined,
          none,
          () => expect(s.userFunctionCall('ONE', [], { line: 1, column: 1 })).toBeUndefined(),
        );
        expect(s.userFunctionCall('ONE', [], { line: 1, column: 1 })?.fn([])).toBe(1);
      },
    );
    expect(s.userTypes).toBeUndefined();
    expect(s.userFunctionCall('ONE', [], { line: 1, column: 1 })).toBeUndefined();
  });
});

describe('compiles share no state', () => {
  const sql = `CREATE TABLE t (id INT NOT NULL PRIMARY KEY, x INT);
    CREATE TABLE u (id INT NOT NULL PRIMARY KEY, y INT);
    CREATE VIEW v AS SELECT id, (SELECT MAX(y) FROM u WHERE u.id = t.id) AS m FROM t WHERE x > 0;`;

  it('the same program gets the same node ids however many programs were compiled before it', () => {
    const first = planOf(sql, 'V');
    for (let i = 0; i < 3; i++) bindProgram(`CREATE TABLE w${i} (a INT); CREATE VIEW z${i} AS SELECT a + 1 AS b FROM w${i} WHERE a IN (SELECT a FROM w${i});`, 'upper');
    expect(planOf(sql, 'V')).toBe(first);
    expect(Math.min(...planLines(first).map((l) => l.id))).toBe(1);
  });

  it('a user type or function of one program is unknown in the next', () => {
    expect(bindProgram('CREATE TYPE pt AS (x INT); CREATE FUNCTION two() RETURNS INT AS 2; CREATE TABLE t (p pt); CREATE VIEW v AS SELECT two() AS n FROM t;', 'upper').errors).toEqual([]);
    expect(bindProgram('CREATE TABLE t (p pt);', 'upper').errors.map((e) => e.message)).toEqual(["Unknown type 'pt'"]);
    expect(bindProgram('CREATE TABLE t (x INT); CREATE VIEW v AS SELECT two() AS n FROM t;', 'upper').errors.map((e) => e.message)).toEqual([expect.stringMatching(/TWO/i)]);
  });
});
