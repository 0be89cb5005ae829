import { describe, expect, it } from 'vitest';
import { ago, flatten, messageText, renderSqlMessage, rowText } from '../../../src/commands/pipe/render.js';

const msg = (over: Record<string, unknown>) => ({
  start_line_number: 2,
  start_column: 4,
  end_line_number: 2,
  end_column: 8,
  warning: false,
  error_type: 'PRIMARY KEY cannot be nullable',
  message: "PRIMARY KEY column 'C' has type INTEGER, which is nullable",
  snippet: null,
  ...over,
});

describe('SQL error rendering', () => {
  const source = 'CREATE TABLE t (\n   c INT PRIMARY KEY\n);\n';

  it('prints FILE:LINE:COL: message, the source line and a caret under the columns', () => {
    expect(renderSqlMessage(msg({}), 'demo.sql', source)).toBe(
      "demo.sql:2:4: PRIMARY KEY cannot be nullable: PRIMARY KEY column 'C' has type INTEGER, which is nullable\n   c INT PRIMARY KEY\n   ^^^^^",
    );
  });

  it('uses one caret for a span over several lines or without an end, and keeps tabs in the indent', () => {
    expect(renderSqlMessage(msg({ start_line_number: 1, start_column: 8, end_line_number: 3 }), 'f.sql', source).split('\n')[2]).toBe('       ^');
    expect(renderSqlMessage(msg({ start_line_number: 1, start_column: 3, end_column: 0, end_line_number: 1 }), 'f.sql', '\tX SELEC').split('\n')[2]).toBe('\t ^');
  });

  it('does not repeat the error type when the message starts with it; marks warnings', () => {
    expect(messageText(msg({ error_type: 'Error parsing SQL', message: 'Error parsing SQL: Encountered "SELEC"' }))).toBe('Error parsing SQL: Encountered "SELEC"');
    expect(renderSqlMessage(msg({ warning: true, error_type: 'Warning', message: 'unused' }), 'a.sql', source).split('\n')[0]).toBe('a.sql:2:4: warning: Warning: unused');
  });

  it('prints only the head when the line is not in the source, and strips control characters', () => {
    expect(renderSqlMessage(msg({ start_line_number: 40 }), 'a.sql', source)).toBe("a.sql:40:4: PRIMARY KEY cannot be nullable: PRIMARY KEY column 'C' has type INTEGER, which is nullable");
    expect(renderSqlMessage(msg({ message: 'bad\u001b[31m red' }), 'a.sql', source).split('\n')[0]).not.toContain('\u001b');
  });
});

describe('small renderers', () => {
  it('ago, rowText and flatten', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    expect(ago('2026-01-01T00:09:30Z', now)).toBe('30s ago');
    expect(ago('2026-01-01T00:00:00Z', now)).toBe('10m ago');
    expect(ago(undefined)).toBe('');
    expect(rowText({ a: 1, b: 'x', c: null })).toBe('a=1 b="x" c=null');
    expect(flatten({ a: { b: 1, c: [1] }, d: null })).toEqual([
      ['a.b', 1],
      ['a.c', [1]],
      ['d', null],
    ]);
  });
});
