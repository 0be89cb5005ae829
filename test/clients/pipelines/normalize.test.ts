import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRelation, generationOf, isStopped, normalizePipeline, relationRef } from '../../../src/clients/pipelines/normalize.js';

const fixture = (f: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', f), 'utf8'));

describe('pipeline objects of both API generations', () => {
  it("tells the v0.24-era object from today's", () => {
    expect(generationOf(fixture('legacy-pipeline.json'))).toBe('legacy');
    expect(generationOf(fixture('current-pipeline.json'))).toBe('current');
    expect(generationOf({ name: 'x', deployment_status: 'Stopped' })).toBe('current');
  });

  it("reads today's recorded object: Stopped, program_error", () => {
    const p = normalizePipeline(fixture('current-pipeline.json'));
    expect(p).toMatchObject({ name: 'example1', generation: 'current', program: { status: 'Pending', version: 2, messages: [] }, deployment: { status: 'Stopped', desired: 'Stopped', error: null } });
    expect(isStopped(p.deployment.status)).toBe(true);
  });

  it('takes SQL errors from program_status (v0.24) or program_error (today)', () => {
    const m = { start_line_number: 1, start_column: 1, end_line_number: 1, end_column: 2, warning: false, error_type: 'x', message: 'y' };
    expect(normalizePipeline({ ...fixture('legacy-pipeline.json'), program_status: { SqlError: [m] } }).program).toMatchObject({ status: 'SqlError', messages: [m] });
    expect(normalizePipeline({ ...fixture('current-pipeline.json'), program_status: 'SqlError', program_error: { sql_compilation: { exit_code: 1, messages: [m] } } }).program).toMatchObject({
      status: 'SqlError',
      messages: [m],
    });
    expect(normalizePipeline({ name: 'a', program_status: { RustError: 'cargo failed' } }).program).toMatchObject({ status: 'RustError', errorText: 'cargo failed' });
    expect(normalizePipeline({ ...fixture('current-pipeline.json'), program_status: 'SystemError', program_error: { system_error: 'disk full' } }).program.errorText).toBe('disk full');
  });

  it('finds relations case-insensitively unless quoted or case-sensitive', () => {
    const rels = [{ name: 'TOTALS' }, { name: 'Mixed', case_sensitive: true }];
    expect(findRelation(rels, 'totals')?.name).toBe('TOTALS');
    expect(findRelation(rels, 'mixed')).toBeUndefined();
    expect(findRelation(rels, '"Mixed"')?.name).toBe('Mixed');
  });

  it('relationRef quotes a case-sensitive relation for URLs and SQL, and leaves other names as given', () => {
    const rels = [{ name: 'TOTALS' }, { name: 'Mixed', case_sensitive: true }, { name: 'v1', case_sensitive: true }];
    expect(relationRef(rels, 'Mixed')).toBe('"Mixed"');
    expect(relationRef(rels, '"Mixed"')).toBe('"Mixed"');
    expect(relationRef(rels, 'v1')).toBe('"v1"');
    expect(relationRef(rels, 'totals')).toBe('totals');
    expect(relationRef(rels, 'nope')).toBe('nope');
  });
});
