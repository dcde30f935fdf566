// Errors are values with names. Each message names the offending input and what would be
// accepted; adapters (MCP, CLI) show the message as-is.

export class CairnError extends Error {
  override name = 'CairnError';
}

/** A bad argument: nothing was written. */
export class ValidationError extends CairnError {
  override name = 'ValidationError' as const;
}

/** A well-formed id that names no memory. */
export class NotFoundError extends CairnError {
  override name = 'NotFoundError' as const;
}

/** The id names a removed memory; the message carries the removal reason. */
export class TombstonedError extends CairnError {
  override name = 'TombstonedError' as const;
}

/** An id that is not a ULID at all. */
export class MalformedIdError extends CairnError {
  override name = 'MalformedIdError' as const;
}

/** A pending write that expired (or never existed). */
export class PendingExpiredError extends CairnError {
  override name = 'PendingExpiredError' as const;
}

/** config.toml is unreadable or holds a bad value; the message names the key. */
export class ConfigError extends CairnError {
  override name = 'ConfigError' as const;
}

/** The store folder cannot be read or written (permissions, a read-only mount); names the folder. */
export class StoreAccessError extends CairnError {
  override name = 'StoreAccessError' as const;
}

/** The store's lock could not be taken in time. */
export class LockTimeoutError extends CairnError {
  override name = 'LockTimeoutError' as const;
}

/** A record that cannot be written back as asked (e.g. a newer schema). */
export class ConflictError extends CairnError {
  override name = 'ConflictError' as const;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
