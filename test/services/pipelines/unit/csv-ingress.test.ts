import { describe, expect, it } from 'vitest';
import { parseCsvInput, splitCsv } from '../../../../src/services/pipelines/worker/ingress/csv.js';
import { bindingOf, tableBinding, W3B } from './schema.js';

const b = bindingOf(W3B, 'T1');

describe('CSV ingress parser', () => {
  it('accepts mixed line endings and a missing final newline', () => {
    const one = tableBinding('create table t1(c1 integer)');
    const p = parseCsvInput('4\r\n5\r\n6', one);
    expect(p.errors).toEqual([]);
    expect(p.changes.map((c) => (c as unknown as { row: { C1: number } }).row.C1)).toEqual([4, 5, 6]);
  });

  it('W3b step 8: names the bad record, its line and field', () => {
    const p = parseCsvInput('15,true,foo\nnot_a_number,true,ΑαΒβΓγΔδ\n16,false,unicode🚲', b);
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toMatchObject({
      description: "failed to deserialize CSV record: error parsing field 'C1': field 0: invalid digit found in string",
      event_number: 2,
      line: 2,
      field: 'C1',
      invalid_text: 'not_a_number,true,ΑαΒβΓγΔδ\n',
    });
    expect(p.changes).toHaveLength(2);
  });

  it('empty fields are NULL, quoted empty strings stay strings, quotes may span lines', () => {
    const p = parseCsvInput('20,,foo\n25,true,""\n1,false,"a,""b""\nc"\n', b);
    expect(p.errors).toEqual([]);
    expect(p.changes.map((c) => (c as { row: unknown }).row)).toEqual([
      { C1: 20, C2: null, C3: 'foo' },
      { C1: 25, C2: true, C3: '' },
      { C1: 1, C2: false, C3: 'a,"b"\nc' },
    ]);
  });

  it('too few fields are an error (as Feldera: invalid length), fields beyond the columns are ignored', () => {
    const p = parseCsvInput('1,true\n2,true,x,y\n3\n4,false,"z",,"w,w"\n', b);
    expect(p.errors.map((e) => [e.event_number, e.line, e.field, e.invalid_text, e.description])).toEqual([
      [1, 1, null, '1,true\n', 'failed to deserialize CSV record: invalid length 2, expected 3 columns'],
      [3, 3, null, '3\n', 'failed to deserialize CSV record: invalid length 1, expected 3 columns'],
    ]);
    expect(p.changes.map((c) => (c as { row: unknown }).row)).toEqual([
      { C1: 2, C2: true, C3: 'x' },
      { C1: 4, C2: false, C3: 'z' },
    ]);
    // a one-column table: extra fields ignored there too
    const one = tableBinding('create table t1(c1 integer)');
    const q = parseCsvInput('7,8,9\n', one);
    expect(q.errors).toEqual([]);
    expect(q.changes.map((c) => (c as { row: unknown }).row)).toEqual([{ C1: 7 }]);
  });

  it('splitCsv reports an unterminated quote', () => {
    expect(splitCsv('1,"abc\n').error).toMatchObject({ line: 1 });
  });
});
