/** `ops serve --log-requests`: one line per answered request, through a real listening server. */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/services/server.js';
import bookmarks from '../../src/services/bookmarks/index.js';
import { tempDir } from '../helpers/cli.js';

describe('request log', () => {
  it('writes time, method, path, status and milliseconds for every request, errors included', async () => {
    const lines: string[] = [];
    const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-log-'), fetchMetadata: false, linkCheck: false, requestLog: (l) => lines.push(l) }, [bookmarks]);
    try {
      await fetch(`${server.url}/api/version`);
      await fetch(`${server.url}/api/v2/links?page=2`);
      await fetch(`${server.url}/health`);
    } finally {
      await server.close();
    }
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/version 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/ GET \/api\/v2\/links\?page=2 401 /);
    expect(lines[2]).toMatch(/ GET \/health 200 /);
  });
});
