/**
 * Times for people, one style in every tree: "just now", "45s ago", "5m ago", "2h ago", "3d ago", "4mo ago",
 * "2y ago", and "in 5m" for the future. Compact, since they live in table columns. Only on a terminal:
 * pipes and --json get the ISO times.
 */

const UNITS: [seconds: number, suffix: string][] = [
  [365 * 86400, 'y'],
  [30 * 86400, 'mo'],
  [86400, 'd'],
  [3600, 'h'],
  [60, 'm'],
  [1, 's'],
];

export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return String(iso);
  const diff = Math.round((now - t) / 1000);
  const future = diff < 0;
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  const [size, suffix] = UNITS.find(([size]) => abs >= size)!;
  const text = `${Math.floor(abs / size)}${suffix}`;
  return future ? `in ${text}` : `${text} ago`;
}
