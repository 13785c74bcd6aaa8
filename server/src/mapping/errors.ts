type Problem = { field: string; reason: string };

/**
 * Problems with the content of one entry, worded for the editor who fixes them, all at once:
 * `latitude: empty field geo (Geo point) › lat` (the fields the editor sees, not config paths).
 */
export class MappingError extends Error {
  override name = 'MappingError';
  readonly field: string;
  /** every problem found in the entry; this error's own first */
  readonly problems: Problem[];

  constructor(field: string, reason: string, more: Problem[] = []) {
    const problems = [{ field, reason }, ...more];
    super(problems.map((p) => `${p.field}: ${p.reason}`).join('; '));
    this.field = field;
    this.problems = problems;
  }
}

/**
 * The step on every item, then all problems at once. Other errors (readMedia, a bug) are not the
 * editor's to fix: they propagate, and the sync retries them.
 */
export async function collectProblems<T>(items: readonly T[], step: (item: T) => unknown) {
  const errors: MappingError[] = [];
  for (const item of items) {
    try {
      await step(item);
    } catch (err) {
      if (err instanceof MappingError) errors.push(err);
      else throw err;
    }
  }
  const [first, ...more] = errors.flatMap((e) => e.problems);
  if (first) throw new MappingError(first.field, first.reason, more);
}
