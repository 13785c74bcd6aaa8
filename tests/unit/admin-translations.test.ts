/**
 * Every admin string in every shipped language: each file of admin/src/translations has exactly
 * en.json's keys, each message takes the arguments en.json's does (a translation that drops
 * `{count}` or renames it prints the raw placeholder), and every literal id the admin asks for
 * is in en.json.
 */
import fs from 'node:fs';
import path from 'node:path';
// react-intl's own parser (a dependency of react-intl, which the admin uses).
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

const ADMIN = path.join(__dirname, '..', '..', 'admin', 'src');
const DIR = path.join(ADMIN, 'translations');
const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as Record<string, string>;
const en = read('en.json');
const others = fs.readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'en.json');

/** What a set of keys lacks and what it has in excess, against en.json. */
export function keyDiff(reference: Record<string, string>, other: Record<string, string>) {
  return {
    missing: Object.keys(reference).filter((k) => !(k in other)),
    extra: Object.keys(other).filter((k) => !(k in reference)),
  };
}

/** The names of the arguments a message interpolates, plural branches included. */
export function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if ('value' in el && el.type !== TYPE.literal) names.add(String(el.value));
      if ('options' in el)
        for (const option of Object.values(el.options))
          walk(option.value as MessageFormatElement[]);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

/** Ids the admin's sources ask for literally: `t('id', …)` and `getTranslation('id')`. */
function idsInSources(): Array<{ id: string; file: string }> {
  const out: Array<{ id: string; file: string }> = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const m of text.matchAll(/\b(?:t|getTranslation)\(\s*'([^'`$]+)'/g))
          out.push({ id: m[1], file: path.relative(ADMIN, full) });
      }
    }
  };
  visit(ADMIN);
  return out;
}

test('there is at least one translation besides English', () => {
  expect(others.length).toBeGreaterThan(0);
});

test.each(['en.json', ...others])('every message of %s is a valid ICU message', (file) => {
  const messages = read(file);
  const broken = Object.keys(messages).filter((k) => {
    try {
      parse(messages[k]);
      return false;
    } catch {
      return true;
    }
  });
  expect(broken).toEqual([]);
});

describe.each(others)('%s', (file) => {
  const other = read(file);

  test('has every key of en.json, and none en.json lacks', () => {
    expect(keyDiff(en, other)).toEqual({ missing: [], extra: [] });
  });

  test('each message takes the same arguments as in en.json', () => {
    const differ = Object.keys(en)
      .filter((k) => k in other)
      .filter((k) => argumentsOf(en[k]).join() !== argumentsOf(other[k]).join())
      .map((k) => ({ key: k, en: argumentsOf(en[k]), [file]: argumentsOf(other[k]) }));
    expect(differ).toEqual([]);
  });

  test('no message is left empty', () => {
    expect(Object.keys(other).filter((k) => !String(other[k]).trim())).toEqual([]);
  });
});

test('every literal id the admin asks for is in en.json', () => {
  const found = idsInSources();
  expect(found.length).toBeGreaterThan(100); // the scan itself finds the admin's messages
  expect(found.filter(({ id }) => !(id in en))).toEqual([]);
});

// The checks themselves: each one fails on the kind of file it is there to catch.
describe('the checks', () => {
  test('keyDiff names a missing key and an extra one', () => {
    expect(keyDiff({ a: 'A', b: 'B' }, { a: 'A', c: 'C' })).toEqual({
      missing: ['b'],
      extra: ['c'],
    });
  });

  test("an apostrophe before '#' in a plural branch breaks the message (write it '')", () => {
    expect(() => parse("{count, plural, one {d'# entrée} other {de # entrées}}")).toThrow();
    expect(() => parse("{count, plural, one {d''# entrée} other {de # entrées}}")).not.toThrow();
  });

  test('argumentsOf sees arguments inside plural branches and tells renamed ones apart', () => {
    expect(
      argumentsOf('{count, plural, one {# in {where}} other {# in {where}}} · {ms} ms')
    ).toEqual(['count', 'ms', 'where']);
    expect(argumentsOf('{n} entrées')).not.toEqual(argumentsOf('{count} entries'));
  });
});
