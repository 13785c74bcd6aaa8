/**
 * Descriptions both ways: text, Markdown or blocks into the sanitized HTML the remote shows, and
 * its HTML back into the format of the field that receives it on import.
 */
import { convert } from 'html-to-text';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import {
  escapeHtml,
  HEADINGS,
  htmlToBlocks,
  isBlocks,
  LIST_TAGS,
  NON_TEXT_TAGS,
  renderBlocks,
} from './blocks';
import { extend } from '../utils/objects';

// Same switches as Strapi's own rich-text preview, so the remote shows what the editor saw.
const markdown = new MarkdownIt({ html: true, linkify: true, breaks: true });

/** Inline tags that sanitize() keeps as they are: allowed, no attribute, closed by their own end tag. */
const EMPHASIS_TAGS = ['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark'];
export const INLINE_TAGS = [...EMPHASIS_TAGS, 'sub', 'sup', 'small', 'code'];

const ALLOWED_TAGS = [
  ['p', 'br', 'hr', 'pre', 'blockquote', 'div', 'figure', 'figcaption', 'dl', 'dt', 'dd'],
  ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', ...LIST_TAGS, ...HEADINGS],
  ['a', 'img', 'span', 'abbr', ...INLINE_TAGS],
].flat();

/** Absolute when a public origin is known: the remote renders the HTML far from this Strapi. */
function absolutize(url: string, publicUrl?: string): string {
  if (!publicUrl || !url.startsWith('/') || url.startsWith('//')) return url;
  return `${publicUrl.replace(/\/+$/, '')}${url}`;
}

type HtmlOptions = { publicUrl?: string };

/** The only gate between editor content and a page we do not control: no script, style, frame, handler or javascript: URL survives. */
export function sanitize(html: string, opts: HtmlOptions = {}): string {
  return sanitizeParagraphs(html) ?? sanitizeWithLibrary(html, opts);
}

/** sanitize() without its shortcut (tests compare the two). */
export function sanitizeWithLibrary(html: string, opts: HtmlOptions = {}): string {
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
    nonTextTags: [...NON_TEXT_TAGS, 'textarea', 'option', 'noscript', 'template', 'svg', 'math'],
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
          ? extend(attribs, { src: absolutize(attribs.src, opts.publicUrl) })
          : attribs,
      }),
    },
  }).trim();
}

/** A paragraph of text, escapeHtml()'s entities, <br> and inline tags (no attribute), nothing else. */
const PARAGRAPH = String.raw`<p>(?:[^<>&\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|&(?:amp|lt|gt|quot|#39);|<br>|</?(?:${INLINE_TAGS.join('|')})>)*</p>`;
const PARAGRAPHS = new RegExp(String.raw`^${PARAGRAPH}(?:[^\S\u000b\u000c]*${PARAGRAPH})*$`);

/**
 * sanitize-html's output for paragraphs of text, inline tags and <br> (most descriptions), without
 * its parser per call; undefined for anything else. bench:memory: 0.775 without it, goal 0.9.
 */
export function sanitizeParagraphs(html: string): string | undefined {
  const src = html.trim();
  if (!PARAGRAPHS.test(src)) return undefined;
  // Inline tags close in their paragraph, in order; sanitize-html drops a paragraph without text.
  const open: string[] = [];
  for (const [, close, tag] of src.matchAll(/<(\/?)([a-z]+)>/g)) {
    if (tag === 'br') continue;
    if (tag === 'p') {
      if (open.length > 0) return undefined;
    } else if (!close) open.push(tag);
    else if (open.pop() !== tag) return undefined;
  }
  const paragraphs = src.split('</p>').slice(0, -1);
  if (paragraphs.some((p) => p.replace(/<[^>]*>/g, '').trim() === '')) return undefined;
  // sanitize-html decodes entities and escapes only &, < and > again.
  return src
    .replace(/<br>/g, '<br />')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** A rich-text field may hold HTML pasted from elsewhere; Markdown rendering would mangle its structure. */
export function markdownToHtml(text: string): string {
  const t = text.trim();
  const html =
    /^<([a-z][a-z0-9-]*)(\s[^>]*)?\/?>/i.test(t) &&
    /<\/[a-z][a-z0-9-]*\s*>|<(br|hr|img)\b[^>]*>/i.test(t);
  return html ? text : markdown.render(text);
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

/**
 * HTML for a description by the attribute type (none inside JSON or from a transform: the value's
 * shape decides); undefined for a value without a text form.
 */
export function toHtml(value: unknown, attributeType: string | undefined, opts: HtmlOptions = {}) {
  if (value === undefined || value === null) return '';
  let html: string;
  if (attributeType === 'blocks' || isBlocks(value))
    html = renderBlocks(value, (u) => absolutize(u, opts.publicUrl));
  else if (typeof value === 'string')
    html = attributeType === 'richtext' ? markdownToHtml(value) : textToHtml(value);
  else if (typeof value === 'number' || typeof value === 'boolean')
    html = textToHtml(String(value));
  else return undefined;
  return sanitize(html, opts);
}

// Fenced code and '#' headings: what Strapi's Markdown editor writes, and what markdown-it reads back.
const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
});
turndown.remove([...NON_TEXT_TAGS]);

export const htmlToMarkdown = (html: string): string => turndown.turndown(html).trim();

export const htmlToText = (html: string): string =>
  convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
      { selector: 'table', format: 'dataTable' },
    ],
  }).trim();

/** The remote's HTML into each format a description field takes on import. */
export const FROM_HTML = { markdown: htmlToMarkdown, blocks: htmlToBlocks, text: htmlToText };
