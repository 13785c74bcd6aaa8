/**
 * Strapi 5 "blocks" JSON <-> HTML. Strapi ships a React renderer only: blocks render to a string
 * here (sanitized after: URLs come from editors); the import reads HTML through htmlparser2.
 */
import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode, type Element } from 'domhandler';

export const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
export const LIST_TAGS = ['ul', 'ol', 'li'];
/** Their content is code, never text: not sent, not imported. */
export const NON_TEXT_TAGS = ['script', 'style', 'iframe', 'object', 'embed'] as const;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

type Node = Record<string, unknown>;
const childrenOf = (node: Node): Node[] => (Array.isArray(node.children) ? node.children : []);

const isBlock = (n: Node | null) => typeof n?.type === 'string' && Array.isArray(n.children);

/** Does this look like Strapi blocks content (so a JSON field holding blocks renders the same)? */
export const isBlocks = (value: unknown): value is Node[] =>
  Array.isArray(value) && value.length > 0 && value.every(isBlock);

type Mark = 'bold' | 'italic' | 'underline' | 'strikethrough' | 'code';
// Each text mark and its tags (the first is written, all are read), innermost first so that
// `<strong><em>x</em></strong>` nests the same way for every combination.
const MARKS: Array<[Mark, ...string[]]> = [
  ['code', 'code'],
  ['strikethrough', 's', 'del', 'strike'],
  ['underline', 'u', 'ins'],
  ['italic', 'em', 'i'],
  ['bold', 'strong', 'b'],
];

function renderInline(children: Node[]): string {
  return children
    .map((child) => {
      if (!child || typeof child !== 'object') return '';
      if (child.type === 'text') {
        let html = escapeHtml(String(child.text ?? '')).replace(/\n/g, '<br>');
        if (html === '') return '';
        for (const [mark, tag] of MARKS) if (child[mark]) html = `<${tag}>${html}</${tag}>`;
        return html;
      }
      // Unknown inline nodes (a future Strapi version, a plugin): keep their text rather than lose it.
      const inner = renderInline(childrenOf(child));
      const url = child.type === 'link' && typeof child.url === 'string' ? child.url.trim() : '';
      return url ? `<a href="${escapeHtml(url)}">${inner}</a>` : inner;
    })
    .join('');
}

function renderList(node: Node): string {
  const tag = node.format === 'ordered' ? 'ol' : 'ul';
  const items: string[] = [];
  for (const child of childrenOf(node)) {
    if (!child || typeof child !== 'object') continue;
    // Strapi puts an indented list next to the items; valid HTML nests it in the previous item.
    if (child.type === 'list' && items.length > 0) items[items.length - 1] += renderList(child);
    else items.push(child.type === 'list' ? renderList(child) : renderInline(childrenOf(child)));
  }
  return `<${tag}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`;
}

function renderBlock(node: Node, mediaUrl: (url: string) => string): string {
  if (!node || typeof node !== 'object') return '';
  const inner = () => renderInline(childrenOf(node));
  switch (node.type) {
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.level) || 1));
      return `<h${level}>${inner()}</h${level}>`;
    }
    case 'list':
      return renderList(node);
    case 'quote':
      return `<blockquote>${inner()}</blockquote>`;
    case 'code': {
      const text = childrenOf(node)
        .map((c) => (c && typeof c.text === 'string' ? c.text : ''))
        .join('');
      const lang = typeof node.language === 'string' && /^[\w+-]+$/.test(node.language);
      return `<pre><code${lang ? ` class="language-${node.language}"` : ''}>${escapeHtml(text)}</code></pre>`;
    }
    case 'image': {
      const image: Node = node.image && typeof node.image === 'object' ? (node.image as Node) : {};
      if (typeof image.url !== 'string' || image.url === '') return '';
      const alt = typeof image.alternativeText === 'string' ? image.alternativeText : '';
      const size =
        Number.isFinite(image.width) && Number.isFinite(image.height)
          ? ` width="${Number(image.width)}" height="${Number(image.height)}"`
          : '';
      return `<p><img src="${escapeHtml(mediaUrl(image.url))}" alt="${escapeHtml(alt)}"${size}></p>`;
    }
    default: {
      // A paragraph, or a block type this renderer does not know: its text as a paragraph.
      const html = inner();
      return html === '' ? '' : `<p>${html}</p>`;
    }
  }
}

/** `mediaUrl` turns a media URL as stored (maybe relative) into the one to publish. */
export function renderBlocks(blocks: unknown, mediaUrl = (url: string) => url): string {
  return Array.isArray(blocks) ? blocks.map((b) => renderBlock(b, mediaUrl)).join('') : '';
}

type Marks = { [M in Mark]?: true };
type TextNode = { type: 'text'; text: string } & Marks;
type Inline = TextNode | { type: 'link'; url: string; children: TextNode[] };
export type BlockNode = Record<string, unknown> & { type: string };

const MARK_OF = new Map(MARKS.flatMap(([mark, ...tags]) => tags.map((tag) => [tag, mark])));
const SECTION_TAGS = ['div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'figure'];
const OTHER_BLOCKS = ['p', 'figcaption', 'blockquote', 'pre', 'img', 'hr', 'table', 'dl'];
const BLOCK_TAGS = new Set([...SECTION_TAGS, ...HEADINGS, ...LIST_TAGS, ...OTHER_BLOCKS]);
const DROPPED = new Set<string>([...NON_TEXT_TAGS, 'head', 'title']);
const isList = (node: ChildNode): node is Element => isTag(node) && /^(ul|ol)$/.test(node.name);

/** Strapi's editor refuses a block without children: an empty one holds an empty text. */
const orEmpty = (children: Inline[]): Inline[] =>
  children.length ? children : [{ type: 'text', text: '' }];

function inlineOf(nodes: ChildNode[], marks: Marks, out: Inline[]) {
  for (const node of nodes) {
    if (isText(node)) {
      // Blanks and line breaks of the markup are not text; <br> is.
      const text = node.data.replace(/\s+/g, ' ');
      if (text !== '') out.push({ type: 'text', text, ...marks });
      continue;
    }
    if (!isTag(node)) continue;
    const name = node.name.toLowerCase();
    if (DROPPED.has(name)) continue;
    if (name === 'br') out.push({ type: 'text', text: '\n', ...marks });
    else if (name === 'a' && node.attribs.href) {
      const children: Inline[] = [];
      inlineOf(node.children, marks, children);
      const texts = children.filter((c): c is TextNode => c.type === 'text');
      out.push({ type: 'link', url: node.attribs.href, children: texts });
    } else {
      const mark = MARK_OF.get(name);
      inlineOf(node.children, mark ? { ...marks, [mark]: true } : marks, out);
    }
  }
}

/** The inline content of a block, without the blanks the markup left at both ends. */
function inline(nodes: ChildNode[]): Inline[] {
  const out: Inline[] = [];
  inlineOf(nodes, {}, out);
  if (out[0]?.type === 'text') out[0].text = out[0].text.replace(/^ +/, '');
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text = last.text.replace(/ +$/, '');
  return out.filter((c) => c.type === 'link' || c.text !== '');
}

const textOf = (nodes: ChildNode[]): string =>
  nodes.map((n) => (isText(n) ? n.data : isTag(n) ? textOf(n.children) : '')).join('');

function listOf(el: Element): BlockNode {
  const children: BlockNode[] = [];
  for (const child of el.children) {
    if (!isTag(child) || child.name.toLowerCase() !== 'li') continue;
    // A nested list goes next to its item, as Strapi's editor keeps an indented list.
    const own = child.children.filter((c) => !isList(c));
    children.push({ type: 'list-item', children: orEmpty(inline(own)) });
    for (const c of child.children) if (isList(c)) children.push(listOf(c));
  }
  const format = el.name.toLowerCase() === 'ol' ? 'ordered' : 'unordered';
  return { type: 'list', format, children };
}

/** null: nothing to keep; undefined: a container, whose children are the blocks. */
function blockOf(node: Element, name: string): BlockNode | null | undefined {
  if (name === 'p') {
    // An image inside a paragraph (what the push renders) is a block of its own.
    if (node.children.some((c) => isTag(c) && c.name === 'img')) return undefined;
    const children = inline(node.children);
    return children.length ? { type: 'paragraph', children } : null;
  }
  if (/^h[1-6]$/.test(name))
    return { type: 'heading', level: Number(name[1]), children: orEmpty(inline(node.children)) };
  if (name === 'ul' || name === 'ol') return listOf(node);
  if (name === 'blockquote') return { type: 'quote', children: orEmpty(inline(node.children)) };
  if (name === 'pre') {
    const code = node.children.find((c): c is Element => isTag(c) && c.name === 'code');
    const language = /language-([\w+-]+)/.exec(code?.attribs.class ?? '')?.[1];
    const children = [{ type: 'text', text: textOf(node.children) }];
    return { type: 'code', ...(language ? { language } : {}), children };
  }
  if (name === 'hr' || (name === 'img' && !node.attribs.src)) return null;
  if (name !== 'img') return undefined;
  const { src, alt } = node.attribs;
  const width = Number(node.attribs.width);
  const height = Number(node.attribs.height);
  const image = {
    url: src,
    alternativeText: alt ?? '',
    name: alt || src.split('/').pop() || 'image',
    ...(Number.isFinite(width) && Number.isFinite(height) ? { width, height } : {}),
  };
  return { type: 'image', image, children: [{ type: 'text', text: '' }] };
}

function blocksOf(nodes: ChildNode[], out: BlockNode[]) {
  // Inline content between blocks (text straight in <body>, in a <div>) makes a paragraph.
  let loose: ChildNode[] = [];
  const paragraph = () => {
    const children = inline(loose);
    if (children.length) out.push({ type: 'paragraph', children });
    loose = [];
  };
  for (const node of nodes) {
    const name = isTag(node) ? node.name.toLowerCase() : '';
    if (!BLOCK_TAGS.has(name)) {
      if (!DROPPED.has(name)) loose.push(node);
      continue;
    }
    paragraph();
    const block = blockOf(node as Element, name);
    if (block === undefined) blocksOf((node as Element).children, out);
    else if (block) out.push(block);
  }
  paragraph();
}

/** Strapi blocks nodes of an HTML fragment; empty HTML gives no blocks. */
export function htmlToBlocks(html: string): BlockNode[] {
  const out: BlockNode[] = [];
  blocksOf(parseDocument(html).children, out);
  return out;
}
