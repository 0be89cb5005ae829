/**
 * Sizes and durations for people, on a terminal only (pipes and --json keep the raw numbers):
 * bytes as B, KiB, MiB, GiB, TiB (1024-based, one decimal from KiB on); milliseconds as "850 ms", "12.3 s",
 * "4m 05s", "2h 03m", "3d 04h".
 */

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  if (Math.abs(bytes) < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = 'B';
  for (const u of BYTE_UNITS) {
    if (Math.abs(value) < 1024) break;
    value /= 1024;
    unit = u;
  }
  return `${value.toFixed(1)} ${unit}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const total = Math.round(s);
  const [d, h, m, sec] = [Math.floor(total / 86400), Math.floor((total % 86400) / 3600), Math.floor((total % 3600) / 60), total % 60];
  if (d > 0) return `${d}d ${pad(h)}h`;
  if (h > 0) return `${h}h ${pad(m)}m`;
  return `${m}m ${pad(sec)}s`;
}
