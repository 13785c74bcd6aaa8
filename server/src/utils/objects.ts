/** `{ ...base, ...extra }` for objects made per push, without a spread's garbage (bench/HISTORY.md). */
export const extend = <A extends object, B extends object>(base: A, extra: B): A & B =>
  // Object.assign sets a `__proto__` key through the setter where a spread copies it: a JSON
  // answer that holds one keeps the spread's meaning.
  Object.hasOwn(base, '__proto__') || Object.hasOwn(extra, '__proto__')
    ? { ...base, ...extra }
    : Object.assign({}, base, extra);
