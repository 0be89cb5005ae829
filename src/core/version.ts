/** The version of `ops`, from the package's package.json. */
import { readFileSync } from 'node:fs';
import { packageFile } from './package-root.js';

export function version(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
