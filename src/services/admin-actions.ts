/**
 * Admin actions of `ops serve user|token|key`: what each service offers (ServiceHandle.admin), the one
 * error type they throw and readers for their JSON arguments (running them with no server: admin-offline.ts).
 *
 * Rules:
 * - An action takes a JSON object of arguments and answers JSON; it checks its arguments' types itself
 *   (they come over HTTP) and throws AdminError for bad input (exit code 2) or a failure (exit code 1).
 * - The same action code runs in the server (through services/admin-route.ts, events published at once on
 *   the server's EventBus) and offline (no server, so nobody to publish events to; none are kept).
 */
import type { AdminActions } from './types.js';

export class AdminError extends Error {
  constructor(
    message: string,
    /** 1 failure, 2 usage */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

export type AdminArgs = Record<string, unknown>;

/** An optional string argument. */
export function optionalText(args: AdminArgs, key: string): string | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new AdminError(`${key} must be a string`, 2);
  return v;
}

/** A required string argument. */
export function requiredText(args: AdminArgs, key: string): string {
  const v = optionalText(args, key);
  if (v === undefined) throw new AdminError(`${key} is required`, 2);
  return v;
}

/** An optional flag. */
export function flag(args: AdminArgs, key: string): boolean {
  const v = args[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new AdminError(`${key} must be true or false`, 2);
  return v;
}

/** The action, or an AdminError naming what exists. */
export function pickAction(actions: AdminActions, service: string, action: string): AdminActions[string] {
  if (!Object.hasOwn(actions, action)) throw new AdminError(`no admin action "${action}" in the ${service} service (${Object.keys(actions).join(', ')})`, 2);
  return actions[action]!;
}
