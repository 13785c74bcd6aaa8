import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A PNG of one colour (sharp makes a valid one: Strapi's upload refuses hand-made PNGs). */
export async function png(size = 8, color = { r: 20, g: 120, b: 200 }): Promise<Buffer> {
  const sharp = require('sharp');
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export interface MediaServer {
  url: string;
  /** paths asked for, in order */
  hits: string[];
  stop(): Promise<void>;
}

/**
 * Files a remote account's media URLs point at, on 127.0.0.1: `files` by path (a Buffer is served
 * as image/png, `{ body, type, delayMs }` as given, after `delayMs`); any other path answers 404.
 */
export async function startMediaServer(
  files: Record<string, Buffer | { body: Buffer | string; type: string; delayMs?: number }>
): Promise<MediaServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const file = files[path];
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const { body, type, delayMs } = Buffer.isBuffer(file)
      ? { body: file, type: 'image/png', delayMs: 0 }
      : file;
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (delayMs) setTimeout(answer, delayMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
