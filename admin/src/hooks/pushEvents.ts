/** Lets the side panel refresh right after "Push now" or "Push selected" queued its entry. */
const EVENT = 'location-content:pushed';

export interface PushedDetail {
  contentType: string;
  documentIds: string[];
}

export const announcePush = (detail: PushedDetail) =>
  window.dispatchEvent(new CustomEvent<PushedDetail>(EVENT, { detail }));

export function onPush(listener: (detail: PushedDetail) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<PushedDetail>).detail);
  window.addEventListener(EVENT, handler);
  return () => window.removeEventListener(EVENT, handler);
}
