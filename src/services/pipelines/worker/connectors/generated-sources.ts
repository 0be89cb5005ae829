/**
 * The program's generating connectors (`nexmark`, `datagen`): checked when the program compiles
 * (generatedConnectorErrors: each bad configuration a message naming the relation and connector), and opened
 * at the start as streaming sources (generated-input.ts), each resumed from a position when one is given
 * for its endpoint; what only a start can find (a bad resume position) is a ConnectorError naming the
 * endpoint, and the start fails with it.
 */
import type { ConnectorDecl, JsonValue, RelationSchema } from '../../../../engine/index.js';
import type { TableBinding } from '../ingress/binding.js';
import { ConnectorError } from './input.js';
import type { SourceTarget, StreamingSource } from './generated-input.js';
import { planNexmark, type PlanError } from './nexmark-config.js';
import { NexmarkSource } from './nexmark-source.js';
import { DatagenSource } from './datagen-source.js';
import { readDatagenConfig, NUMERIC_STRATEGIES, type DatagenConfig, type FieldSettings } from './datagen-config.js';
import { loadStringFaker, type StringFaker } from './datagen-strings.js';
import type { NexmarkTable } from './nexmark-events.js';

/** Transports whose records are generated in the pipeline's process. */
export const GENERATING_TRANSPORTS: ReadonlySet<string> = new Set(['nexmark', 'datagen']);

export function isGeneratingConnector(decl: ConnectorDecl): boolean {
  return GENERATING_TRANSPORTS.has(decl?.transport?.name);
}

export interface OpenOptions {
  binding: (table: RelationSchema) => TableBinding;
  endpointName: (rel: RelationSchema, decl: ConnectorDecl, index: number) => string;
  /** Positions to resume from, by endpoint name (GeneratedInputs.positions()). */
  positions?: Record<string, JsonValue>;
}

function usesStrings(config: DatagenConfig): boolean {
  const uses = (f: FieldSettings | null): boolean => f !== null && (!(NUMERIC_STRATEGIES as readonly string[]).includes(f.strategy) || uses(f.value));
  return config.plans.some((p) => p.fields.some(uses));
}

export async function openGeneratedSources(tables: readonly RelationSchema[], opts: OpenOptions): Promise<StreamingSource[]> {
  let strings: StringFaker | null = null;
  const sources: StreamingSource[] = [];
  const target = (rel: RelationSchema, index: number): SourceTarget => ({ endpoint: opts.endpointName(rel, rel.connectors[index]!, index), binding: opts.binding(rel) });
  const { plan, errors } = planNexmark(tables);
  if (errors.length > 0) throw new ConnectorError(errors[0]!.message, { table: errors[0]!.relation.name, transport: 'nexmark' });
  if (plan) {
    const targets = {} as Record<NexmarkTable, SourceTarget>;
    for (const [t, where] of Object.entries(plan.targets)) targets[t as NexmarkTable] = target(where.relation, where.index);
    const bid = targets.bid.endpoint;
    try {
      sources.push(new NexmarkSource(targets, plan.options, opts.positions?.[bid]));
    } catch (err) {
      throw new ConnectorError(`Input connector '${bid}' cannot resume: ${(err as Error).message}`, { endpoint_name: bid, transport: 'nexmark' });
    }
  }
  for (const rel of tables) {
    for (const [index, decl] of rel.connectors.entries()) {
      if (decl?.transport?.name !== 'datagen') continue;
      const t = target(rel, index);
      try {
        const config = readDatagenConfig(decl.transport.config, rel);
        if (strings === null && usesStrings(config)) strings = await loadStringFaker();
        sources.push(new DatagenSource(t, config, opts.positions?.[t.endpoint], strings));
      } catch (err) {
        throw new ConnectorError(`Input connector '${t.endpoint}' of table '${rel.name}': datagen: ${(err as Error).message}`, { table: rel.name, endpoint_name: t.endpoint, transport: 'datagen' });
      }
    }
  }
  return sources;
}

/** Every configuration error of the program's generating connectors, each naming its relation and connector. */
export function generatedConnectorErrors(tables: readonly RelationSchema[]): PlanError[] {
  const errors = [...planNexmark(tables).errors];
  for (const rel of tables) {
    rel.connectors.forEach((decl, index) => {
      if (decl?.transport?.name !== 'datagen') return;
      try {
        readDatagenConfig(decl.transport.config, rel);
      } catch (err) {
        errors.push({ relation: rel, message: `relation '${rel.name}', connector ${decl.name ? `'${decl.name}'` : `#${index + 1}`}: datagen: ${(err as Error).message}` });
      }
    });
  }
  return errors;
}
