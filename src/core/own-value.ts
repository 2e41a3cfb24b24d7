/** Lookups keyed by request input in plain records: own properties only, never Object.prototype's members. */

/**
 * `record[key]` when `key` is the record's own property, else undefined. A plain `record[key]` with a
 * key from a request answers `constructor`, `toString` or `__proto__` with Object.prototype's members.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
