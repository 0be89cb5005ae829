/**
 * Profile names for completion, read from config.json and credentials.json directly: no server, no
 * config library, a few milliseconds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../../core/paths.js';

function profilesIn(file: string): string[] {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { profiles?: Record<string, unknown> };
    return data.profiles && typeof data.profiles === 'object' ? Object.keys(data.profiles) : [];
  } catch {
    return [];
  }
}

export function profileNames(env: NodeJS.ProcessEnv): string[] {
  const dir = configDir(env);
  const names = new Set([...profilesIn(join(dir, 'config.json')), ...profilesIn(join(dir, 'credentials.json'))]);
  return [...names].sort();
}
