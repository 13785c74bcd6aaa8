/**
 * `{ ...base, ...extra }` for objects made once per push or per row. On Node 20's V8 an object
 * literal that adds properties after a spread is allocated straight into the old generation: a
 * resync's worth of them is garbage that only a full collection frees, which in a small heap is
 * what slowed it (bench/HISTORY.md, tenth session). Object.assign onto a new object is not.
 */
export const extend = <A extends object, B extends object>(base: A, extra: B): A & B =>
  // Object.assign sets a `__proto__` key through the setter where a spread copies it: a JSON
  // answer that holds one keeps the spread's meaning.
  Object.hasOwn(base, '__proto__') || Object.hasOwn(extra, '__proto__')
    ? { ...base, ...extra }
    : Object.assign({}, base, extra);
