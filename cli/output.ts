/**
 * Where the CLI writes. stdout is the command's alone: its result lines, or with --json one JSON
 * document. Anything else that writes to stdout while the app runs (Strapi's logger, a console.log
 * in the app) is sent to stderr. Progress goes to stderr: a bar redrawn in place on a terminal,
 * a plain line now and then otherwise, nothing with --json.
 */
const stdoutWrite = process.stdout.write.bind(process.stdout);

/** From here on, whatever writes to process.stdout writes to stderr; `out` still reaches stdout. */
export function reserveStdout() {
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

export const out = (text: string) =>
  new Promise<void>((resolve) => {
    stdoutWrite(text.endsWith('\n') ? text : `${text}\n`, () => resolve());
  });

/** An error's first line: the CLI says why in one line, never with a stack. */
export const firstLine = (e: unknown) =>
  (e instanceof Error ? e.message : String(e)).split('\n')[0].trim();

export const err = (line: string) => {
  process.stderr.write(`${line}\n`);
};

export interface Progress {
  /** `done` of `total` (total null: not known yet), with a word on what runs */
  update(label: string, done: number, total: number | null): void;
  end(): void;
}

const WIDTH = 28;
const PLAIN_EVERY_MS = 5000;

export function progress(mode: 'tty' | 'plain' | 'none'): Progress {
  if (mode === 'none') return { update: () => undefined, end: () => undefined };
  if (mode === 'plain') {
    let last = '';
    let lastAt = 0;
    return {
      update(label, done, total) {
        const line = `${label}: ${done}${total != null ? `/${total}` : ''}`;
        const now = Date.now();
        if (line === last || now - lastAt < PLAIN_EVERY_MS) return;
        last = line;
        lastAt = now;
        err(line);
      },
      end: () => undefined,
    };
  }
  let drawn = false;
  return {
    update(label, done, total) {
      let bar: string;
      if (total) {
        const filled = Math.min(WIDTH, Math.round((done / total) * WIDTH));
        bar = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total}`;
      } else bar = `${done}`;
      const columns = process.stderr.columns || 80;
      process.stderr.write(`\r\x1b[2K${`${label} ${bar}`.slice(0, columns - 1)}`);
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
