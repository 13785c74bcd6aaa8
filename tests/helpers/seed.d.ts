export function seedPlaces(
  strapi: any,
  options: {
    count: number;
    prefix?: string;
    start?: number;
    locale?: string;
    published?: boolean;
    bodyText?: string;
  }
): Promise<{ count: number; documentIds: string[]; ms: number }>;
export function coordinatesOf(i: number): { lat: number; lng: number };
export function titleOf(prefix: string, i: number): string;
export function newDocumentId(): string;
