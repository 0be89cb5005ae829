/**
 * What a pipeline's runtime_config asks of its storage, as ops serve reads it (docs/pipelines.md,
 * "Durable pipelines"), on the server's side:
 * - Storage is always on: each pipeline keeps its state under `<root>/<pipeline id>/` (checkpoints and the
 *   input log), whatever `runtime_config.storage` says (v0.24's clients send `false`; the state of a local
 *   backend is kept all the same, as Feldera's Enterprise edition keeps it).
 * - `fault_tolerance` (Feldera's FtConfig): absent or null, or an object without `model`, or model
 *   `exactly_once` / `at_least_once` (or the legacy strings): every input is logged before it is applied
 *   (exactly once: at_least_once gets the stronger guarantee) and checkpoints are taken every
 *   `checkpoint_interval_secs` (default 60, clamped into 1..3600; null: none periodic). Model `none` opts out
 *   of the log: state is kept by checkpoints alone (asked for, and at every graceful stop).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageConfig } from '../shared/storage/storage-figures.js';

export const DEFAULT_CHECKPOINT_INTERVAL_SECS = 60;

export interface FaultTolerance {
  inputLog: boolean;
  checkpointIntervalMs: number | null;
}

export function faultToleranceOf(runtimeConfig: Record<string, unknown>): FaultTolerance {
  const ft = runtimeConfig.fault_tolerance;
  if (ft === 'none') return { inputLog: false, checkpointIntervalMs: null };
  if (ft === null || ft === undefined || typeof ft !== 'object') return { inputLog: true, checkpointIntervalMs: DEFAULT_CHECKPOINT_INTERVAL_SECS * 1000 };
  const o = ft as Record<string, unknown>;
  const inputLog = o.model !== 'none';
  const secs = 'checkpoint_interval_secs' in o ? o.checkpoint_interval_secs : DEFAULT_CHECKPOINT_INTERVAL_SECS;
  const interval = typeof secs === 'number' && Number.isFinite(secs) ? Math.min(3600, Math.max(1, Math.round(secs))) * 1000 : secs === null ? null : DEFAULT_CHECKPOINT_INTERVAL_SECS * 1000;
  return { inputLog, checkpointIntervalMs: inputLog ? interval : null };
}

/** A pipeline's program as its checkpoints know it: the SQL text and the casing of its output names. */
export function programFingerprint(code: string, outputCase: string): string {
  return createHash('sha256').update(outputCase).update('\0').update(code).digest('hex');
}

export function storageDirOf(root: string, pipelineId: string): string {
  return join(root, pipelineId);
}

export function storageConfigOf(root: string, rec: { id: string; program_code: string; program_version: number; runtime_config: Record<string, unknown> }, outputCase: string): StorageConfig {
  const ft = faultToleranceOf(rec.runtime_config);
  return {
    dir: storageDirOf(root, rec.id),
    inputLog: ft.inputLog,
    checkpointIntervalMs: ft.checkpointIntervalMs,
    fingerprint: programFingerprint(rec.program_code, outputCase),
    programVersion: rec.program_version,
  };
}

/** Whether the pipeline has stored state (today's Feldera storage_status InUse; else Cleared). */
export function storageInUse(root: string, pipelineId: string): boolean {
  const dir = storageDirOf(root, pipelineId);
  if (!existsSync(dir)) return false;
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Deletes a pipeline's stored state (`/shutdown`, `/stop?force=true`, `/clear`, DELETE). */
export function clearStorage(root: string, pipelineId: string): void {
  rmSync(storageDirOf(root, pipelineId), { recursive: true, force: true });
}
