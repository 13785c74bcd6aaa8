const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `create` (Strapi's createStrapi) and takes back the SIGINT and SIGTERM handlers it adds:
 * they destroy Strapi and exit with code 0, so a CI job stopped mid-command would pass.
 */
export function withoutSignalHandlers<T>(create: () => T): T {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  try {
    return create();
  } finally {
    for (const s of SIGNALS)
      for (const listener of process.listeners(s))
        if (!before.get(s)!.has(listener)) process.off(s, listener);
  }
}

/**
 * The first SIGINT or SIGTERM, once it comes: the command then stops as after an error. A second
 * one does not wait for that: `exitNow` ends the process.
 */
export function interruption(exitNow: () => void) {
  let handler: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    handler = (s) => {
      handler = exitNow;
      resolve(s);
    };
  });
  const listener = (s: NodeJS.Signals) => handler(s);
  for (const s of SIGNALS) process.on(s, listener);
  return {
    signal,
    dispose: () => SIGNALS.forEach((s) => process.off(s, listener)),
  };
}
