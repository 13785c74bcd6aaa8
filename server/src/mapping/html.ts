import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml, isBlocks, renderBlocks } from './blocks';

// Same switches as Strapi's own rich-text preview, so the remote shows what the editor saw.
const markdown = new MarkdownIt({ html: true, linkify: true, breaks: true });

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'img',
  'span',
  'div',
  'figure',
  'figcaption',
  'abbr',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
];

/** Absolute when a public origin is known: the remote renders the HTML far from this Strapi. */
function absolutize(url: string, publicUrl?: string): string {
  if (!publicUrl || !url.startsWith('/') || url.startsWith('//')) return url;
  return `${publicUrl.replace(/\/+$/, '')}${url}`;
}

export interface HtmlOptions {
  publicUrl?: string;
}

/**
 * The only gate between editor content and a page we do not control: no scripts, styles,
 * frames, event handlers or javascript: URLs survive, whatever produced the HTML.
 */
export function sanitize(html: string, opts: HtmlOptions = {}): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      ol: ['start'],
      code: ['class'],
      th: ['colspan', 'rowspan', 'align'],
      td: ['colspan', 'rowspan', 'align'],
      abbr: ['title'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: true,
    // Their text content is code or markup, never prose worth keeping.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'noscript',
      'iframe',
      'object',
      'embed',
      'template',
      'svg',
      'math',
    ],
    // An image whose source was refused (javascript:, data:) is an empty box on the remote page,
    // and so is the paragraph that only held it.
    exclusiveFilter: (frame) =>
      (frame.tag === 'img' && !frame.attribs.src) ||
      (frame.tag === 'p' && frame.text.trim() === '' && frame.mediaChildren.length === 0),
    transformTags: {
      a: (tagName, attribs) => {
        const out: Record<string, string> = { ...attribs };
        if (out.href) out.href = absolutize(out.href, opts.publicUrl);
        if (out.target === '_blank') out.rel = 'noopener noreferrer';
        return { tagName, attribs: out };
      },
      img: (tagName, attribs) => ({
        tagName,
        attribs: attribs.src
          ? { ...attribs, src: absolutize(attribs.src, opts.publicUrl) }
          : attribs,
      }),
    },
  }).trim();
}

/** A rich-text field may hold HTML pasted from elsewhere; Markdown rendering would mangle its structure. */
export function looksLikeHtml(text: string): boolean {
  const t = text.trim();
  return (
    /^<([a-z][a-z0-9-]*)(\s[^>]*)?\/?>/i.test(t) &&
    /<\/[a-z][a-z0-9-]*\s*>|<(br|hr|img)\b[^>]*>/i.test(t)
  );
}

export function markdownToHtml(text: string): string {
  return looksLikeHtml(text) ? text : markdown.render(text);
}

/** Plain text: blank lines separate paragraphs, single newlines stay line breaks. */
export function textToHtml(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  if (normalized === '') return '';
  return normalized
    .split(/\n[ \t]*\n+/)
    .map((para) => `<p>${escapeHtml(para.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Strapi attribute types whose value is Markdown. */
const MARKDOWN_TYPES = new Set(['richtext']);

/**
 * HTML for a description, decided by the attribute type the path ends on (undefined when the
 * path ends inside JSON or a transform produced the value: then the value's shape decides).
 * Undefined when the value has no text form.
 */
export function toHtml(
  value: unknown,
  attributeType: string | undefined,
  opts: HtmlOptions = {}
): string | undefined {
  if (value === undefined || value === null) return '';
  let html: string;
  if (attributeType === 'blocks' || isBlocks(value)) {
    html = renderBlocks(value, { mediaUrl: (u) => absolutize(u, opts.publicUrl) });
  } else if (typeof value === 'string') {
    html =
      attributeType !== undefined && MARKDOWN_TYPES.has(attributeType)
        ? markdownToHtml(value)
        : textToHtml(value);
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    html = textToHtml(String(value));
  } else {
    // An object that is not blocks: no faithful HTML for it; the caller reports it.
    return undefined;
  }
  return sanitize(html, opts);
}
