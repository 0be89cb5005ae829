/**
 * Serialized list pages, kept until the next change to links (ours or another process's): clients that
 * poll the first page get it without a query. Bounded, oldest entries dropped first.
 */
export class PageCache {
  private readonly entries = new Map<string, { version: string; body: string }>();

  constructor(private readonly max = 256) {}

  get(key: string, version: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    return e.body;
  }

  set(key: string, version: string, body: string): void {
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { version, body });
  }
}
