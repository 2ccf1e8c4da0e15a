/**
 * Identifiers. Jobs, scrapes and documents use lowercase UUIDv7 (compat.md §1.1): time-ordered, so
 * listing by id is listing by creation time.
 */

/** A new lowercase UUIDv7 string. */
export function newId(): string {
  return Bun.randomUUIDv7();
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a well-formed lowercase or uppercase UUID (any version). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value.toLowerCase());
}
