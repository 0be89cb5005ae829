/** The version of `ops`, from the package.json beside dist/ and src/. */
import { readFileSync } from 'node:fs';

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
