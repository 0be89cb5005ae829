/**
 * Wire types declared once (issue #35): a type that wire/ declares for a service is not declared again by that
 * service's client or its server. A client may widen one under the same name (`interface Webhook extends
 * WebhookShape`: what only some answers carry); a copy that could drift from the server's is what this catches.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SRC } from './imports.js';

/** Each wire module and the modules of its service, client and server (paths under src/, a folder ends in /). */
const SIDES: Record<string, readonly string[]> = {
  'wire/pipelines.ts': ['clients/pipelines.ts', 'clients/pipelines/', 'services/pipelines/'],
  'wire/notifications.ts': ['clients/notify.ts', 'services/notifications/'],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The type and interface names a module exports. */
function exportedTypes(text: string): string[] {
  return [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
}

/** Where `text` declares a type or interface of one of `names` (not one that extends the wire type it widens). */
function redeclared(text: string, names: readonly string[]): string[] {
  const interfaces = [...text.matchAll(/^\s*(?:export\s+)?interface\s+(\w+)\s*(?:<[^>]*>)?\s*\{/gm)];
  const aliases = [...text.matchAll(/^\s*(?:export\s+)?type\s+(\w+)\s*(?:<[^>]*>)?\s*=/gm)];
  return [...interfaces, ...aliases].map((m) => m[1]!).filter((name) => names.includes(name));
}

/** The redeclarations of each wire module's types by its service's modules, as `module: Name`. */
function redeclarations(read: (module: string) => string): string[] {
  const all = files(SRC).map((f) => relative(SRC, f));
  return Object.entries(SIDES).flatMap(([wire, sides]) => {
    const names = exportedTypes(read(wire));
    const modules = all.filter((m) => sides.some((s) => (s.endsWith('/') ? m.startsWith(s) : m === s)));
    return modules.flatMap((m) => redeclared(read(m), names).map((name) => `${m}: ${name}`));
  });
}

const readSource = (module: string) => readFileSync(join(SRC, module), 'utf8');

describe('wire types', () => {
  test('every wire module has types and service modules to check', () => {
    for (const [wire, sides] of Object.entries(SIDES)) {
      expect(exportedTypes(readSource(wire)).length, wire).toBeGreaterThan(0);
      expect(sides.length).toBeGreaterThan(0);
    }
    expect(exportedTypes(readSource('wire/notifications.ts'))).toContain('DeliveryQuery');
  });

  test("no client or server declares again a type of its service's wire module", () => {
    expect(redeclarations(readSource)).toEqual([]);
  });

  test('the rule catches what it is for', () => {
    const added: Record<string, string> = {
      'clients/notify.ts': 'export interface DeliveryQuery {\n  status?: string;\n}\n',
      'services/pipelines/index.ts': 'type ErrorBody = { message: string };\n',
      'services/notifications/index.ts': 'interface Webhook extends WebhookShape {\n  secret?: string;\n}\n',
    };
    const read = (m: string) => readSource(m) + (added[m] ?? '');
    expect(redeclarations(read).sort()).toEqual(['clients/notify.ts: DeliveryQuery', 'services/pipelines/index.ts: ErrorBody']);
  });
});
