/** `GET /location-content/entries/:contentType/:documentId/preview`: what the entry would send now; nothing is sent. */
export interface PayloadPreview {
  version: 'draft' | 'published';
  /** the payload field by field, media as { name, mime, sizeKb } (Strapi's size) instead of bytes; null when nothing would be sent */
  payload: Record<string, unknown> | null;
  /** related entries without a remote id yet: "waits for …" when blocking */
  waitsFor: Array<{
    contentType: string;
    documentId: string;
    locale: string;
    role: string;
    blocking: boolean;
  }>;
  /** every mapping problem, in words */
  problems: Array<{ field: string; reason: string }>;
  /** why nothing would be sent (no such version, the transform skipped it) */
  skipped: string | null;
}

export declare namespace GetPayloadPreview {
  export interface Request {
    params: { contentType: string; documentId: string };
    query: { locale?: string };
  }
  export interface Response {
    previews: PayloadPreview[];
  }
}
