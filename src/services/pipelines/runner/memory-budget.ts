/**
 * The server's memory budget for its running pipelines together. Each pipeline's worker has a heap limit
 * of its own (runtime_config.resources.memory_mb_max, 2048 MiB by default), but enough pipelines near
 * their limits can together take more than the machine has, and then the system ends the whole server
 * process: every pipeline and both other services. The budget keeps the server alive instead.
 *
 * Rules: a pipeline's memory is what its worker last reported of its process's resident memory (stats'
 * rss_bytes: each pipeline runs in a process of its own; reported after every step and every second). When the running pipelines'
 * memory together is over the budget, the one using the most is chosen to be failed (Failed, with a
 * RuntimeError.OutOfMemory saying why; its worker ends and its memory is freed): one pipeline per check,
 * so the next check sees what is left. The budget is the service option `pipelinesMemoryBudgetMb`, by
 * default DEFAULT_BUDGET_SHARE of the memory this process may have (the machine's, or its cgroup's limit
 * when lower). Pure but for reading the machine's memory in defaultBudgetMb.
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

/** The share of the machine's memory the pipelines may use together, by default. */
export const DEFAULT_BUDGET_SHARE = 0.75;
/** How often the manager checks the budget. */
export const BUDGET_CHECK_MS = 500;

const MIB = 1024 * 1024;

export interface PipelineMemory {
  name: string;
  bytes: number;
}

/** The pipeline to fail: the one using the most, when all together are over `budgetBytes`; null when within. */
export function overBudget(pipelines: readonly PipelineMemory[], budgetBytes: number): PipelineMemory | null {
  let total = 0;
  let largest: PipelineMemory | null = null;
  for (const p of pipelines) {
    total += p.bytes;
    if (largest === null || p.bytes > largest.bytes) largest = p;
  }
  return total > budgetBytes ? largest : null;
}

/** The memory this process may have: the machine's, or the cgroup's limit (containers) when lower. */
export function availableMemoryBytes(): number {
  let limit = totalmem();
  try {
    const text = readFileSync('/sys/fs/cgroup/memory.max', 'utf8').trim(); // cgroup v2; "max" when unlimited
    const n = Number(text);
    if (Number.isFinite(n) && n > 0) limit = Math.min(limit, n);
  } catch {
    // no cgroup v2 limit to read: the machine's memory
  }
  return limit;
}

export function defaultBudgetMb(): number {
  return Math.floor((availableMemoryBytes() * DEFAULT_BUDGET_SHARE) / MIB);
}

/** The deployment_error of a pipeline failed to keep the budget. */
export function overBudgetError(victim: PipelineMemory, totalBytes: number, budgetMb: number): { message: string; error_code: string; details: Record<string, number> } {
  const mb = (b: number) => Math.round(b / MIB);
  return {
    message: `The server's running pipelines together used ${mb(totalBytes)} MiB, over the memory budget of ${budgetMb} MiB it keeps for them; this pipeline, the largest at ${mb(victim.bytes)} MiB, was stopped so that the others and the server keep running.`,
    error_code: 'RuntimeError.OutOfMemory',
    details: { memory_budget_mb: budgetMb, pipelines_memory_mb: mb(totalBytes), pipeline_memory_mb: mb(victim.bytes) },
  };
}

/**
 * What a pipeline is taken to need to start: its process (Node's runtime, the engine, the SQL parser) is
 * about 95 MB resident when idle. A pipeline that has not reported its memory yet (still starting) counts
 * this much too, so that many starts at once cannot together go past the budget before any of them reports.
 */
export const START_RESERVE_MB = 128;

/**
 * The deployment_error of a start refused because the budget has no room for another pipeline's process
 * (the running ones, each at its last report or START_RESERVE_MB if it has none yet, plus START_RESERVE_MB);
 * null when there is room. Without it, starting pipelines faster than the budget's check could fail them
 * made a process each, each ~95 MB, with nothing to stop them before the system's memory ran out.
 */
export function startRefusal(running: readonly PipelineMemory[], budgetMb: number): { message: string; error_code: string; details: Record<string, number> } | null {
  const reserve = START_RESERVE_MB * MIB;
  const used = running.reduce((sum, p) => sum + (p.bytes > 0 ? p.bytes : reserve), 0);
  if (used + reserve <= budgetMb * MIB) return null;
  const mb = (b: number) => Math.round(b / MIB);
  return {
    message: `The pipeline cannot start: the server's ${running.length} running pipeline(s) use ${mb(used)} MiB of the memory budget of ${budgetMb} MiB it keeps for them, and a pipeline needs about ${START_RESERVE_MB} MiB to start. Stop another pipeline, or give the server a larger budget.`,
    error_code: 'RuntimeError.OutOfMemory',
    details: { memory_budget_mb: budgetMb, pipelines_memory_mb: mb(used), start_reserve_mb: START_RESERVE_MB },
  };
}
