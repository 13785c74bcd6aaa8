import { renderBlocks } from '../../server/src/mapping/blocks';
import {
  INLINE_TAGS,
  markdownToHtml,
  sanitize,
  sanitizeParagraphs,
  sanitizeWithLibrary,
  textToHtml,
  toHtml,
} from '../../server/src/mapping/html';

describe('description HTML', () => {
  it('plain text is escaped, newlines become <br>, blank lines paragraphs', () => {
    expect(toHtml('a < b & "c"\nnext\n\n  second  ', 'text')).toBe(
      '<p>a &lt; b &amp; "c"<br />next</p><p>second</p>'
    );
    expect(textToHtml('   ')).toBe('');
    expect(toHtml('<script>alert(1)</script>', 'string')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'
    );
  });

  it('Markdown (richtext) renders, raw HTML inside it is sanitized', () => {
    const html = toHtml(
      '## Title\n\n- one\n- [two](https://x.example/a?b=1)\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))',
      'richtext'
    );
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<li><a href="https://x.example/a?b=1">two</a></li>');
    expect(html).not.toMatch(/onerror|href="javascript/i);
    expect(html).toContain('<img src="x" />');
  });

  it('a richtext value that already is HTML is kept (sanitized), not re-rendered as Markdown', () => {
    const html = '<p>Hello <em>world</em></p>\n<ul><li>a</li></ul>';
    expect(markdownToHtml(html)).toBe(html);
    expect(toHtml('<div><p>Text *not emphasis*</p></div><style>p{}</style>', 'richtext')).toBe(
      '<div><p>Text *not emphasis*</p></div>'
    );
  });

  it('the sanitizer strips scripts, styles, frames, event handlers and javascript: URLs', () => {
    const dirty =
      '<p onclick="x()" style="color:red">ok<script>steal()</script></p><iframe src="https://evil.example">f</iframe>' +
      '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt&colon;alert(1)">b</a><img src="data:image/png;base64,AA"><svg><script>x</script></svg>' +
      '<a href="https://ok.example" target="_blank">c</a>';
    const clean = sanitize(dirty);
    expect(clean).toBe(
      '<p>ok</p><a>a</a><a>b</a><a href="https://ok.example" target="_blank" rel="noopener noreferrer">c</a>'
    );
    expect(sanitize('<img src="/uploads/a.png" alt="">')).toBe(
      '<img src="/uploads/a.png" alt="" />'
    );
  });

  it('relative media URLs become absolute when the public URL is known', () => {
    expect(
      sanitize('<img src="/uploads/a.png"><a href="/x">x</a><a href="//cdn.example/y">y</a>', {
        publicUrl: 'https://cms.example/',
      })
    ).toBe(
      '<img src="https://cms.example/uploads/a.png" /><a href="https://cms.example/x">x</a><a href="//cdn.example/y">y</a>'
    );
  });
});

describe('Strapi blocks renderer', () => {
  const text = (t: string, marks: Record<string, boolean> = {}) => ({
    type: 'text',
    text: t,
    ...marks,
  });

  it('renders every block type and text modifier', () => {
    const blocks = [
      { type: 'heading', level: 3, children: [text('Hi')] },
      {
        type: 'paragraph',
        children: [
          text('b', { bold: true }),
          text(' i', { italic: true }),
          text(' u', { underline: true }),
          text(' s', { strikethrough: true }),
          text(' c', { code: true }),
          text(' all', { bold: true, italic: true }),
          { type: 'link', url: 'https://a.example', children: [text('link')] },
        ],
      },
      { type: 'quote', children: [text('Quoted\nline')] },
      { type: 'code', language: 'js', children: [text('if (a < b) {}')] },
      {
        type: 'image',
        image: { url: '/uploads/p.png', alternativeText: 'A "pic"', width: 10, height: 20 },
        children: [text('')],
      },
      { type: 'paragraph', children: [text('')] },
    ];
    expect(renderBlocks(blocks)).toBe(
      '<h3>Hi</h3>' +
        '<p><strong>b</strong><em> i</em><u> u</u><s> s</s><code> c</code><strong><em> all</em></strong><a href="https://a.example">link</a></p>' +
        '<blockquote>Quoted<br>line</blockquote>' +
        '<pre><code class="language-js">if (a &lt; b) {}</code></pre>' +
        '<p><img src="/uploads/p.png" alt="A &quot;pic&quot;" width="10" height="20"></p>'
    );
  });

  it('renders ordered, unordered and nested lists (nested inside the previous item)', () => {
    const blocks = [
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [text('one')] },
          {
            type: 'list',
            format: 'ordered',
            indentLevel: 1,
            children: [{ type: 'list-item', children: [text('1.a')] }],
          },
          { type: 'list-item', children: [text('two')] },
        ],
      },
    ];
    expect(renderBlocks(blocks)).toBe('<ul><li>one<ol><li>1.a</li></ol></li><li>two</li></ul>');
  });

  it('is sanitized like everything else: links and images from editors are not trusted', () => {
    const html = toHtml(
      [
        {
          type: 'paragraph',
          children: [
            { type: 'link', url: 'javascript:alert(1)', children: [text('x')] },
            text('<script>y</script>'),
          ],
        },
        { type: 'image', image: { url: 'javascript:alert(1)' }, children: [] },
      ],
      'blocks',
      { publicUrl: 'https://cms.example' }
    );
    expect(html).toBe('<p><a>x</a>&lt;script&gt;y&lt;/script&gt;</p>');
    expect(
      toHtml([{ type: 'image', image: { url: '/uploads/p.png' }, children: [] }], 'blocks')
    ).toBe('<p><img src="/uploads/p.png" alt="" /></p>');
  });

  it('a JSON field holding blocks renders as blocks; unknown nodes keep their text', () => {
    expect(toHtml([{ type: 'callout', children: [text('Note')] }], undefined)).toBe('<p>Note</p>');
    expect(toHtml({ some: 'object' }, 'json')).toBeUndefined();
  });

  describe('the shortcut for paragraphs of text', () => {
    /** A seeded generator: the same cases at every run, so a failure can be replayed. */
    const random = (seed: number) => () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(r: () => number, xs: T[]) => xs[Math.floor(r() * xs.length)];
    const chars = [
      'a',
      'Zé',
      ' ',
      '\n',
      '\r',
      '\t',
      '\u00a0',
      "'",
      '"',
      '=',
      '中😀',
      '\ud800',
      '\u0000',
      '/',
    ];
    const risky = [
      '<',
      '>',
      '&',
      '&nbsp;',
      '&#60;',
      '&amp',
      '<a href="javascript:x">',
      '</a>',
      '<P>',
      '<p >',
      '<br/>',
      '<br />',
      '<hr>',
      '<img src=x onerror=y>',
      '<script>',
      '</script>',
      '<ul><li>',
      '</li></ul>',
      '<span>',
      '</span>',
      '<blink>',
      '</blink>',
      '<!-- c -->',
      '<p>',
      '</p>',
    ];
    const entities = ['&amp;', '&lt;', '&gt;', '&quot;', '&#39;'];

    /** Mostly well-formed paragraphs, sometimes broken on purpose. */
    const generate = (r: () => number): string => {
      const inlineRun = (depth: number): string => {
        let out = '';
        const n = Math.floor(r() * 4);
        for (let i = 0; i < n; i++) {
          const x = r();
          if (x < 0.45) out += pick(r, chars);
          else if (x < 0.6) out += pick(r, entities);
          else if (x < 0.68) out += '<br>';
          else if (x < 0.85 && depth < 3) {
            const tag = pick(r, INLINE_TAGS);
            // Now and then closed by another tag's end tag, or not closed.
            const end = r() < 0.1 ? pick(r, INLINE_TAGS) : tag;
            out += `<${tag}>${inlineRun(depth + 1)}${r() < 0.05 ? '' : `</${end}>`}`;
          } else if (x < 0.9) out += pick(r, risky);
          else out += pick(r, chars).repeat(3);
        }
        return out;
      };
      const paragraphs = 1 + Math.floor(r() * 3);
      let html = r() < 0.1 ? pick(r, chars) : '';
      for (let i = 0; i < paragraphs; i++) {
        html += `<p>${inlineRun(0)}${r() < 0.05 ? '' : '</p>'}`;
        if (r() < 0.2) html += pick(r, [' ', '\n', 'x', '<br>']);
      }
      return html;
    };

    it('gives what sanitize-html gives, or leaves the HTML to it', () => {
      const r = random(Number(process.env.HTML_SEED ?? 20261126));
      let taken = 0;
      const cases = Number(process.env.HTML_CASES ?? 20_000);
      for (let i = 0; i < cases; i++) {
        const html = generate(r);
        const fast = sanitizeParagraphs(html);
        if (fast === undefined) continue;
        taken++;
        // The input is in the message: a failure names the HTML that differs.
        expect({ html, out: fast }).toEqual({ html, out: sanitizeWithLibrary(html) });
      }
      // The cases must exercise the shortcut, and the fallback too.
      expect(taken).toBeGreaterThan(cases * 0.1);
      expect(taken).toBeLessThan(cases * 0.9);
    });

    it('takes what textToHtml and renderBlocks write for plain prose', () => {
      const prose = 'It\'s "here" & <there>\nnext line\n\nsecond paragraph';
      expect(sanitizeParagraphs(textToHtml(prose))).toBe(sanitizeWithLibrary(textToHtml(prose)));
      expect(sanitizeParagraphs(textToHtml(prose))).toBe(
        '<p>It\'s "here" &amp; &lt;there&gt;<br />next line</p><p>second paragraph</p>'
      );
      const blocks = [
        {
          type: 'paragraph',
          children: [
            text('A '),
            { type: 'text', text: 'bold', bold: true, italic: true },
            text(' one.'),
          ],
        },
      ];
      expect(sanitizeParagraphs(renderBlocks(blocks))).toBe(
        '<p>A <strong><em>bold</em></strong> one.</p>'
      );
    });

    it('leaves links, images, lists, attributes and empty paragraphs to sanitize-html', () => {
      for (const html of [
        '<p><a href="javascript:alert(1)">x</a></p>',
        '<p><img src=x onerror=alert(1)></p>',
        '<ul><li>a</li></ul>',
        '<p class="x">a</p>',
        '<p> </p><p>a</p>',
        '<p><strong>a</p></strong>',
        '<p>a</p>x',
        '<p>a &nbsp; b</p>',
        '<p>a > b</p>',
      ])
        expect(sanitizeParagraphs(html)).toBeUndefined();
    });
  });
});
