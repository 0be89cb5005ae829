/** Datetimes as LinkAce serialises them: ISO 8601 UTC with six fractional digits and `Z`. */
export function isoMicro(date: Date = new Date()): string {
  const s = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `${s.slice(0, 23)}000Z`;
}

/** Unix seconds (possibly fractional) to the API datetime format. */
export function fromUnixSeconds(seconds: number): string {
  return isoMicro(new Date(Math.round(seconds * 1000)));
}

/** API datetime (or any Date.parse-able string) to unix seconds, or null. */
export function toUnixSeconds(value: string | null | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}
