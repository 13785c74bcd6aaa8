/**
 * Problems with the content of one entry, worded for the editor who fixes them, all at once:
 * `latitude: empty field geo (Geo point) › lat` (the fields the editor sees, not config paths).
 */
export class MappingError extends Error {
  readonly field: string;
  readonly reason: string;
  /** every problem found in the entry; this error itself is the first */
  readonly problems: Array<{ field: string; reason: string }>;

  constructor(field: string, reason: string, more: Array<{ field: string; reason: string }> = []) {
    const problems = [{ field, reason }, ...more];
    super(problems.map((p) => `${p.field}: ${p.reason}`).join('; '));
    this.name = 'MappingError';
    this.field = field;
    this.reason = reason;
    this.problems = problems;
  }

  static combine(errors: MappingError[]): MappingError {
    const all = errors.flatMap((e) => e.problems);
    return new MappingError(all[0].field, all[0].reason, all.slice(1));
  }
}

/**
 * Runs every step, even after one failed, and throws all problems at once. Other errors (a failing
 * readMedia, a bug) are not the editor's to fix: they propagate, and the sync retries them.
 */
export async function collectProblems(
  steps: Array<() => unknown | Promise<unknown>>
): Promise<void> {
  const errors: MappingError[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      if (err instanceof MappingError) errors.push(err);
      else throw err;
    }
  }
  if (errors.length > 0) throw MappingError.combine(errors);
}
