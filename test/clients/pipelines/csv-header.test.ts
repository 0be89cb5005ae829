/** CSV header lines for `ops pipe ingest` (clients/pipelines/csv-header.ts): detection, mapping by name, errors. */
import { describe, expect, it } from 'vitest';
import { applyCsvHeader, csvFields, csvRecord, headerMapping } from '../../../src/clients/pipelines/csv-header.js';
import { InputError } from '../../../src/clients/pipelines/ingest-input.js';

async function run(records: string[][], options: Parameters<typeof applyCsvHeader>[1]): Promise<string[]> {
  async function* groups() {
    yield* records;
  }
  const out: string[] = [];
  for await (const g of applyCsvHeader(groups(), options)) out.push(...g);
  return out;
}

describe('CSV fields', () => {
  it('splits quoted fields with commas, quotes and newlines, and joins them back', () => {
    expect(csvFields('1,"Ann, B.","say ""hi""",,"a\nb"')).toEqual(['1', 'Ann, B.', 'say "hi"', '', 'a\nb']);
    expect(csvRecord(['1', 'Ann, B.', 'say "hi"', '', 'a\nb'])).toBe('1,"Ann, B.","say ""hi""",,"a\nb"');
    expect(csvFields('')).toEqual(['']);
  });
});

describe('headerMapping', () => {
  it('maps the columns in any order and any case', () => {
    expect(headerMapping('name, ID', ['id', 'NAME'])).toEqual({ mapping: [1, 0] });
    expect(headerMapping('"id","name"', ['ID', 'NAME'])).toEqual({ mapping: [0, 1] });
  });
  it('says why a record is not a header', () => {
    expect(headerMapping('1,Ann', ['id', 'name']).reason).toBe('not columns of the table: 1, ann; missing: id, name');
    expect(headerMapping('id', ['id', 'name']).reason).toBe('missing: name');
    expect(headerMapping('id,id', ['id', 'name']).reason).toBe('it names "id" twice');
  });
});

describe('applyCsvHeader', () => {
  const columns = ['ID', 'NAME'];

  it('reads a header when the first record names the columns and re-orders every record', async () => {
    let told: boolean | undefined;
    expect(await run([['name,id', 'Ann,1'], ['"B, C",2']], { columns, onHeader: (r) => (told = r) })).toEqual(['1,Ann', '2,"B, C"']);
    expect(told).toBe(true);
  });

  it("leaves header-less CSV alone (Feldera's form), and --no-header sends a header-like line as a row", async () => {
    expect(await run([['1,Ann', '2,Bo']], { columns })).toEqual(['1,Ann', '2,Bo']);
    expect(await run([['id,name', '1,Ann']], { columns, header: false })).toEqual(['id,name', '1,Ann']);
    expect(await run([['id,name']], {})).toEqual(['id,name']); // columns unknown: nothing to detect
  });

  it('--header insists, with a clear error; a record of the wrong width is an error naming it', async () => {
    await expect(run([['1,Ann']], { columns, header: true })).rejects.toThrow(
      /--header: the first record is not a header of the table's columns \(not columns of the table: 1, ann; missing: ID, NAME\)/,
    );
    await expect(run([['id,name']], { header: true })).rejects.toThrow(/does not describe the columns/);
    const err = await run([['id,name', '1,Ann', '2']], { columns }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe('record 2 (after the header) has 1 field; the header has 2');
  });
});
