/**
 * Strapi 5 "blocks" JSON → HTML. Strapi ships a React renderer only, and the server has no DOM,
 * so this is a small string renderer. Its output still goes through the sanitizer: link URLs
 * and image sources come from editors.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

type Node = Record<string, unknown>;

export interface BlocksOptions {
  /** turns a media URL as stored (maybe relative) into the one to publish */
  mediaUrl?: (url: string) => string;
}

/** Does this look like Strapi blocks content (so a JSON field holding blocks renders the same)? */
export function isBlocks(value: unknown): value is Node[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (n) =>
        n !== null &&
        typeof n === 'object' &&
        typeof n.type === 'string' &&
        Array.isArray(n.children)
    )
  );
}

function renderText(node: Node): string {
  let html = escapeHtml(String(node.text ?? '')).replace(/\n/g, '<br>');
  if (html === '') return '';
  // Innermost first, so `<strong><em>x</em></strong>` nests the same way for every combination.
  if (node.code) html = `<code>${html}</code>`;
  if (node.strikethrough) html = `<s>${html}</s>`;
  if (node.underline) html = `<u>${html}</u>`;
  if (node.italic) html = `<em>${html}</em>`;
  if (node.bold) html = `<strong>${html}</strong>`;
  return html;
}

function renderInline(children: unknown, opts: BlocksOptions): string {
  if (!Array.isArray(children)) return '';
  return children
    .map((child: Node) => {
      if (!child || typeof child !== 'object') return '';
      if (child.type === 'text') return renderText(child);
      if (child.type === 'link') {
        const inner = renderInline(child.children, opts);
        const url = typeof child.url === 'string' ? child.url.trim() : '';
        return url ? `<a href="${escapeHtml(url)}">${inner}</a>` : inner;
      }
      // Unknown inline nodes (a future Strapi version, a plugin): keep their text rather than lose it.
      return renderInline(child.children, opts);
    })
    .join('');
}

function renderList(node: Node, opts: BlocksOptions): string {
  const tag = node.format === 'ordered' ? 'ol' : 'ul';
  const items: string[] = [];
  for (const child of Array.isArray(node.children) ? node.children : []) {
    if (!child || typeof child !== 'object') continue;
    if (child.type === 'list') {
      // Strapi puts an indented list next to the items, not inside one; valid HTML nests it
      // inside the previous item.
      const nested = renderList(child, opts);
      if (items.length > 0)
        items[items.length - 1] = items[items.length - 1].replace(/<\/li>$/, `${nested}</li>`);
      else items.push(`<li>${nested}</li>`);
    } else {
      items.push(`<li>${renderInline(child.children, opts)}</li>`);
    }
  }
  return `<${tag}>${items.join('')}</${tag}>`;
}

function renderBlock(node: Node, opts: BlocksOptions): string {
  if (!node || typeof node !== 'object') return '';
  switch (node.type) {
    case 'paragraph': {
      const inner = renderInline(node.children, opts);
      return inner === '' ? '' : `<p>${inner}</p>`;
    }
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.level) || 1));
      return `<h${level}>${renderInline(node.children, opts)}</h${level}>`;
    }
    case 'list':
      return renderList(node, opts);
    case 'quote':
      return `<blockquote>${renderInline(node.children, opts)}</blockquote>`;
    case 'code': {
      const text = (Array.isArray(node.children) ? node.children : [])
        .map((c: Node) => (c && typeof c.text === 'string' ? c.text : ''))
        .join('');
      const lang =
        typeof node.language === 'string' && /^[\w+-]+$/.test(node.language)
          ? ` class="language-${node.language}"`
          : '';
      return `<pre><code${lang}>${escapeHtml(text)}</code></pre>`;
    }
    case 'image': {
      const image: Node = node.image && typeof node.image === 'object' ? (node.image as Node) : {};
      if (typeof image.url !== 'string' || image.url === '') return '';
      const src = opts.mediaUrl ? opts.mediaUrl(image.url) : image.url;
      const alt = typeof image.alternativeText === 'string' ? image.alternativeText : '';
      const size =
        Number.isFinite(image.width) && Number.isFinite(image.height)
          ? ` width="${Number(image.width)}" height="${Number(image.height)}"`
          : '';
      return `<p><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${size}></p>`;
    }
    default: {
      const inner = renderInline(node.children, opts);
      return inner === '' ? '' : `<p>${inner}</p>`;
    }
  }
}

export function renderBlocks(blocks: unknown, opts: BlocksOptions = {}): string {
  if (!Array.isArray(blocks)) return '';
  return blocks.map((b) => renderBlock(b, opts)).join('');
}
