/*
 * The narrow part of markdown-it and sanitize-html that the mapping uses. Declared here rather
 * than pulling @types packages into the shared devDependencies; replace with @types/markdown-it
 * and @types/sanitize-html (and delete this file) if the project adds them.
 */
declare module 'markdown-it' {
  interface MarkdownItOptions {
    html?: boolean;
    linkify?: boolean;
    breaks?: boolean;
    typographer?: boolean;
  }
  class MarkdownIt {
    constructor(options?: MarkdownItOptions);
    render(src: string): string;
  }
  export default MarkdownIt;
}

declare module 'sanitize-html' {
  interface Transformed {
    tagName: string;
    attribs: Record<string, string>;
    text?: string;
  }
  interface SanitizeOptions {
    allowedTags?: string[] | false;
    allowedAttributes?: Record<string, string[]> | false;
    allowedSchemes?: string[];
    allowedSchemesByTag?: Record<string, string[]>;
    allowProtocolRelative?: boolean;
    nonTextTags?: string[];
    exclusiveFilter?: (frame: {
      tag: string;
      attribs: Record<string, string>;
      text: string;
      mediaChildren: string[];
    }) => boolean;
    transformTags?: Record<
      string,
      (tagName: string, attribs: Record<string, string>) => Transformed
    >;
  }
  function sanitizeHtml(dirty: string, options?: SanitizeOptions): string;
  export default sanitizeHtml;
}
