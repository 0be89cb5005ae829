/**
 * A running pipeline's clock: the value NOW() has in its steps (engine CircuitOptions.clock), as Feldera's
 * built-in `now` connector (crates/adapters/src/transport/clock.rs) keeps it. Pure: the wall clock is
 * injected, nothing here sets a timer (the worker does, worker/clock-ticker.ts).
 *
 * Rules (as Feldera):
 * - `runtime_config.clock_resolution_usecs` (default 1,000,000: one second), rounded to whole milliseconds,
 *   at least 1 ms. NOW() is the wall clock rounded down to the resolution, so views that read it change at
 *   most once per resolution; the pipeline steps once per resolution (the worker's ticker).
 * - `clock_timezone_offset` (`"+05:30"`, `"-08:00"`): added to every value, so NOW() is local time at that
 *   fixed offset (no daylight saving), for wall-clock, offset and http-driven clocks alike.
 * - `dev_tweaks.now_offset` (RFC 3339): NOW() starts at that instant (rounded down) and advances with the
 *   wall clock from there. `dev_tweaks.now_http_driven`: NOW() starts at the same value (the wall clock, or
 *   the offset) and then moves only by `advance` (POST /clock/advance): `delta_ms` 0 reads it without moving
 *   it, null advances one resolution, n advances n ms and rounds up to the resolution (so any advance moves
 *   it forward). It never goes back.
 */

export const DEFAULT_CLOCK_RESOLUTION_USECS = 1_000_000;
/** The largest TIMESTAMP, 9999-12-31 23:59:59.999, in ms since the epoch. */
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface ClockSettings {
  resolutionMs: number;
  httpDriven: boolean;
  /** dev_tweaks.now_offset in ms since the epoch (null: none). */
  offsetMs: number | null;
  /** clock_timezone_offset in ms east of UTC (0: UTC). */
  timezoneMs?: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 3339 date-times (what chrono's DateTime<Utc> deserializes): a date, T or space, a time, Z or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Why the clock fields of a runtime_config do not deserialize (serde's wording, as Feldera's manager
 * answers a PUT), or null when they do: `clock_resolution_usecs` a u64 or null, `dev_tweaks` an object
 * whose `now_http_driven` is a bool or null and `now_offset` an RFC 3339 string or null.
 */
export function clockConfigError(rc: Json): string | null {
  const res = rc.clock_resolution_usecs;
  if (res !== undefined && res !== null) {
    if (typeof res !== 'number' || !Number.isInteger(res)) return `field 'runtime_config.clock_resolution_usecs' must be null or a whole number of microseconds, not ${JSON.stringify(res)}`;
    if (res < 0 || !Number.isSafeInteger(res)) return `invalid value: integer \`${res}\`, expected u64 (field 'runtime_config.clock_resolution_usecs')`;
  }
  const tz = rc.clock_timezone_offset;
  if (tz !== undefined && tz !== null && timezoneOffsetMs(tz) === null)
    return `field 'runtime_config.clock_timezone_offset': invalid timezone offset ${JSON.stringify(tz)} (expected a UTC offset such as "+05:30" or "-08:00")`;
  const dt = rc.dev_tweaks;
  if (dt === undefined || dt === null) return null;
  if (!isObject(dt)) return "field 'runtime_config.dev_tweaks' must be an object";
  const http = dt.now_http_driven;
  if (http !== undefined && http !== null && typeof http !== 'boolean') return `field 'runtime_config.dev_tweaks.now_http_driven' must be null, true or false, not ${JSON.stringify(http)}`;
  const offset = dt.now_offset;
  if (offset !== undefined && offset !== null && (typeof offset !== 'string' || !RFC3339.test(offset) || Number.isNaN(Date.parse(offset))))
    return `field 'runtime_config.dev_tweaks.now_offset' must be null or an RFC 3339 date-time such as "2024-01-01T00:00:00Z", not ${JSON.stringify(offset)}`;
  return null;
}

/** The clock settings of a runtime_config (one clockConfigError accepted). */
export function clockSettings(rc: Json): ClockSettings {
  const usecs = typeof rc.clock_resolution_usecs === 'number' ? rc.clock_resolution_usecs : DEFAULT_CLOCK_RESOLUTION_USECS;
  const dt = isObject(rc.dev_tweaks) ? rc.dev_tweaks : {};
  return {
    // Feldera: max((usecs + 500) / 1000, 1), integer division
    resolutionMs: Math.max(Math.floor((usecs + 500) / 1000), 1),
    httpDriven: dt.now_http_driven === true,
    offsetMs: typeof dt.now_offset === 'string' ? Date.parse(dt.now_offset) : null,
    timezoneMs: timezoneOffsetMs(rc.clock_timezone_offset) ?? 0,
  };
}

/** A UTC offset `+HH:MM` / `-HH:MM` (strictly within a day, as chrono's FixedOffset) in ms, or null. */
function timezoneOffsetMs(v: unknown): number | null {
  const m = typeof v === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(v) : null;
  if (!m || Number(m[2]) > 23 || Number(m[3]) > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

const floorTo = (v: number, res: number): number => Math.floor(v / res) * res;
const ceilTo = (v: number, res: number): number => Math.ceil(v / res) * res;

export class PipelineClock {
  /** What is added to the wall clock: the shift to now_offset (fixed when the pipeline starts) and the timezone offset. */
  private readonly shift: number;
  private current: number;

  constructor(
    readonly settings: ClockSettings,
    private readonly wall: () => number = Date.now,
  ) {
    const start = wall();
    this.shift = (settings.offsetMs === null ? 0 : settings.offsetMs - start) + (settings.timezoneMs ?? 0);
    this.current = floorTo(start + this.shift, settings.resolutionMs);
  }

  /** NOW() for the step about to be taken: the held value (http-driven), else the wall clock rounded down. */
  now(): number {
    if (!this.settings.httpDriven) this.current = Math.max(this.current, floorTo(this.wall() + this.shift, this.settings.resolutionMs));
    return this.current;
  }

  /**
   * POST /clock/advance (http-driven only; the caller checks): 0 reads the value, null advances one
   * resolution, n ms advances n and rounds up to the resolution. Answers the new value, or null (and stays)
   * when that would pass the largest TIMESTAMP.
   */
  advance(deltaMs: number | null): number | null {
    const delta = deltaMs ?? this.settings.resolutionMs;
    if (delta === 0) return this.current;
    const next = ceilTo(this.current + delta, this.settings.resolutionMs);
    if (!(next <= MAX_TIMESTAMP_MS)) return null; // the caller refuses it; the clock stays
    this.current = next;
    return this.current;
  }

  /**
   * A restored pipeline goes on from NOW()'s value in its state (ms): an http-driven clock holds it again, a
   * wall clock never goes back below it.
   */
  continueFrom(ms: number): void {
    this.current = this.settings.httpDriven ? ms : Math.max(this.current, ms);
  }

  /** Milliseconds of wall time until NOW() next changes (wall-clock mode): the next tick is due then. */
  msToNextTick(): number {
    const next = this.current + this.settings.resolutionMs;
    return Math.max(0, next - (this.wall() + this.shift));
  }
}
