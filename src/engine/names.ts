/** Looking up tables and views by a name given from outside (URL segment, API call). */
export interface Named {
  name: string;
  /** Declared with a quoted name that differs from its folded form. */
  caseSensitive: boolean;
}

/**
 * `"X"` matches the name X exactly. An unquoted name is folded like an SQL identifier and matched exactly,
 * then case-insensitively among relations whose names are not case-sensitive, then as given.
 */
export function resolveName<T extends Named>(list: Iterable<T>, name: string, casing: 'upper' | 'lower'): T | undefined {
  const arr = [...list];
  if (name.length > 1 && name.startsWith('"') && name.endsWith('"')) {
    const n = name.slice(1, -1).replace(/""/g, '"');
    return arr.find((r) => r.name === n);
  }
  const folded = casing === 'upper' ? name.toUpperCase() : name.toLowerCase();
  return arr.find((r) => r.name === folded) ?? arr.find((r) => !r.caseSensitive && r.name.toLowerCase() === name.toLowerCase()) ?? arr.find((r) => r.name === name);
}
