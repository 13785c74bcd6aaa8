export function freePort(): Promise<number>;
export function serverOwner(
  names: string[],
  what: string
): { name: string; uid: number; gid: number } | null;
