import { convert } from 'html-to-text';
import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode, type Element } from 'domhandler';
import TurndownService from 'turndown';

/**
 * The remote's HTML description into the format of the field that receives it: Markdown for a
 * rich text field (turndown), Strapi blocks for a blocks field (htmlparser2's tree mapped to
 * blocks nodes: the inverse of mapping/blocks.ts), plain text otherwise (html-to-text).
 */

// Fenced code and '#' headings: what Strapi's Markdown editor writes, and what markdown-it reads back.
const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
});
// Never carried into an editor's field: the push strips them anyway (mapping/html.ts).
turndown.remove(['script', 'style', 'iframe', 'object', 'embed']);

export const htmlToMarkdown = (html: string): string => turndown.turndown(html).trim();

export const htmlToText = (html: string): string =>
  convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'table', format: 'dataTable' },
    ],
  }).trim();

type Marks = { bold?: true; italic?: true; underline?: true; strikethrough?: true; code?: true };
type TextNode = { type: 'text'; text: string } & Marks;
type LinkNode = { type: 'link'; url: string; children: TextNode[] };
type Inline = TextNode | LinkNode;
export type BlockNode = Record<string, unknown> & { type: string };

const MARK_OF: Record<string, keyof Marks> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  code: 'code',
};
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'figure',
  'figcaption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'img',
  'hr',
  'table',
  'dl',
]);
const DROPPED = new Set(['script', 'style', 'iframe', 'object', 'embed', 'head', 'title']);

/** Strapi's editor refuses a block without children: an empty one holds an empty text. */
const orEmpty = (children: Inline[]): Inline[] =>
  children.length ? children : [{ type: 'text', text: '' }];

function inlineOf(nodes: ChildNode[], marks: Marks, out: Inline[]) {
  for (const node of nodes) {
    if (isText(node)) {
      // Blanks and line breaks of the markup are not text; <br> is.
      const text = node.data.replace(/\s+/g, ' ');
      if (text !== '') out.push(Object.assign({ type: 'text' as const, text }, marks));
    } else if (isTag(node)) {
      const name = node.name.toLowerCase();
      if (DROPPED.has(name)) continue;
      if (name === 'br') out.push(Object.assign({ type: 'text' as const, text: '\n' }, marks));
      else if (name === 'a' && node.attribs.href) {
        const children: Inline[] = [];
        inlineOf(node.children, marks, children);
        out.push({
          type: 'link',
          url: node.attribs.href,
          children: children.filter((c): c is TextNode => c.type === 'text'),
        });
      } else if (MARK_OF[name]) inlineOf(node.children, { ...marks, [MARK_OF[name]]: true }, out);
      else inlineOf(node.children, marks, out);
    }
  }
}

/** Trims the blanks the markup left at both ends of a block, keeps the ones between words. */
function tidy(children: Inline[]): Inline[] {
  const out = children.filter((c) => c.type === 'link' || c.text !== '');
  const first = out[0];
  if (first?.type === 'text') first.text = first.text.replace(/^ +/, '');
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text = last.text.replace(/ +$/, '');
  return out.filter((c) => c.type === 'link' || c.text !== '');
}

const inline = (nodes: ChildNode[]): Inline[] => {
  const out: Inline[] = [];
  inlineOf(nodes, {}, out);
  return tidy(out);
};

const textOf = (nodes: ChildNode[]): string =>
  nodes.map((n) => (isText(n) ? n.data : isTag(n) ? textOf(n.children) : '')).join('');

function listOf(el: Element): BlockNode {
  const children: BlockNode[] = [];
  for (const child of el.children) {
    if (!isTag(child) || child.name.toLowerCase() !== 'li') continue;
    // A nested list goes next to its item, as Strapi's editor keeps an indented list.
    const own = child.children.filter((c) => !(isTag(c) && (c.name === 'ul' || c.name === 'ol')));
    children.push({ type: 'list-item', children: orEmpty(inline(own)) });
    for (const c of child.children)
      if (isTag(c) && (c.name === 'ul' || c.name === 'ol')) children.push(listOf(c));
  }
  return {
    type: 'list',
    format: el.name.toLowerCase() === 'ol' ? 'ordered' : 'unordered',
    children,
  };
}

function blocksOf(nodes: ChildNode[], out: BlockNode[]) {
  // Inline content between blocks (text straight in <body>, in a <div>) makes a paragraph.
  let loose: ChildNode[] = [];
  const flush = () => {
    const children = inline(loose);
    if (children.length) out.push({ type: 'paragraph', children });
    loose = [];
  };
  for (const node of nodes) {
    if (!isTag(node) || !BLOCK_TAGS.has(node.name.toLowerCase())) {
      if (!(isTag(node) && DROPPED.has(node.name.toLowerCase()))) loose.push(node);
      continue;
    }
    flush();
    const name = node.name.toLowerCase();
    if (/^h[1-6]$/.test(name))
      out.push({
        type: 'heading',
        level: Number(name[1]),
        children: orEmpty(inline(node.children)),
      });
    else if (name === 'ul' || name === 'ol') out.push(listOf(node));
    else if (name === 'blockquote')
      out.push({ type: 'quote', children: orEmpty(inline(node.children)) });
    else if (name === 'pre') {
      const code = node.children.find((c): c is Element => isTag(c) && c.name === 'code');
      const language = /language-([\w+-]+)/.exec(code?.attribs.class ?? '')?.[1];
      out.push({
        type: 'code',
        ...(language ? { language } : {}),
        children: [{ type: 'text', text: textOf(node.children) }],
      });
    } else if (name === 'img') {
      if (!node.attribs.src) continue;
      const width = Number(node.attribs.width);
      const height = Number(node.attribs.height);
      out.push({
        type: 'image',
        image: {
          url: node.attribs.src,
          alternativeText: node.attribs.alt ?? '',
          name: node.attribs.alt || node.attribs.src.split('/').pop() || 'image',
          ...(Number.isFinite(width) && Number.isFinite(height) ? { width, height } : {}),
        },
        children: [{ type: 'text', text: '' }],
      });
    } else if (name === 'p') {
      // An image inside a paragraph (what the push renders) is a block of its own.
      const images = node.children.filter((c) => isTag(c) && c.name === 'img');
      if (images.length) blocksOf(node.children, out);
      else {
        const children = inline(node.children);
        if (children.length) out.push({ type: 'paragraph', children });
      }
    } else if (name === 'hr') continue;
    else blocksOf(node.children, out);
  }
  flush();
}

/** Strapi blocks nodes of an HTML fragment; empty HTML gives no blocks. */
export function htmlToBlocks(html: string): BlockNode[] {
  const out: BlockNode[] = [];
  blocksOf(parseDocument(html).children, out);
  return out;
}
