/**
 * `{ ...base, ...extra }` for objects made once per push, which Node 20's V8 would allocate in the
 * old generation: bench:memory 0.775 without it and the sanitize shortcut, 0.908 with (goal 0.9).
 */
export const extend = <A extends object, B extends object>(base: A, extra: B): A & B =>
  // Object.assign sets a `__proto__` key through the setter where a spread copies it: a JSON
  // answer that holds one keeps the spread's meaning.
  Object.hasOwn(base, '__proto__') || Object.hasOwn(extra, '__proto__')
    ? { ...base, ...extra }
    : Object.assign({}, base, extra);
