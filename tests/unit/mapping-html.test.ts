import {
  markdownToHtml,
  renderBlocks,
  sanitize,
  textToHtml,
  toHtml,
} from '../../server/src/mapping';

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

  it('keeps what textToHtml and renderBlocks write for plain prose', () => {
    const prose = 'It\'s "here" & <there>\nnext line\n\nsecond paragraph';
    expect(sanitize(textToHtml(prose))).toBe(
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
    expect(sanitize(renderBlocks(blocks))).toBe('<p>A <strong><em>bold</em></strong> one.</p>');
  });
});
