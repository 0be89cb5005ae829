import { describe, expect, it } from 'vitest';
import { formatLog, jsonLogsEnabled, LogBook, MAX_LINES_PER_RING, microTimestamp } from '../../../../src/services/pipelines/runner/logs.js';

describe('logs', () => {
  it('JSON lines carry the required members and the pipeline fields', () => {
    const book = new LogBook();
    book.log('INFO', 'pipeline', 'dbsp_adapters::controller', 'hello', { name: 'p1', id: 'id-1' });
    const [rec] = book.lines('id-1');
    const o = JSON.parse(formatLog(rec!, true));
    expect(o).toEqual({
      timestamp: rec!.timestamp,
      level: 'INFO',
      target: 'dbsp_adapters::controller',
      fields: { message: 'hello' },
      'engine-service': 'pipeline',
      'pipeline-name': 'p1',
      'pipeline-id': 'id-1',
    });
    expect(o.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('service lines have no pipeline fields; plain text is one line', () => {
    const book = new LogBook();
    book.log('WARN', 'manager', 'pipeline_manager', 'started');
    const [rec] = book.lines();
    expect(JSON.parse(formatLog(rec!, true))).not.toHaveProperty('pipeline-name');
    expect(formatLog(rec!, false)).toMatch(/^\S+Z WARN {2}manager: started$/);
  });

  it('ENGINE_LOG_JSON switches the format', () => {
    expect(jsonLogsEnabled({})).toBe(false);
    expect(jsonLogsEnabled({ ENGINE_LOG_JSON: '1' })).toBe(true);
    expect(jsonLogsEnabled({ ENGINE_LOG_JSON: 'true' })).toBe(true);
    expect(jsonLogsEnabled({ ENGINE_LOG_JSON: '0' })).toBe(false);
    expect(microTimestamp()).toMatch(/\.\d{6}Z$/);
  });

  it('keeps the last MAX_LINES_PER_RING lines of a pipeline', () => {
    const book = new LogBook();
    for (let i = 0; i < MAX_LINES_PER_RING + 1500; i++) book.log('INFO', 'pipeline', 't', `line ${i}`, { name: 'p', id: 'x' });
    const lines = book.lines('x');
    expect(lines).toHaveLength(MAX_LINES_PER_RING);
    expect(lines[lines.length - 1]!.message).toBe(`line ${MAX_LINES_PER_RING + 1499}`);
    expect(lines[0]!.message).toBe('line 1500');
  });
});
