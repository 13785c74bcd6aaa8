/** A webhook receiver for the plugin's alerts: each JSON body it is sent, in order. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertMessage } from '../../shared/contracts/alerts';

export interface AlertReceiver {
  /** the bodies received so far */
  alerts: AlertMessage[];
  url(path?: string): string;
  close(): Promise<void>;
}

export async function startAlertReceiver(): Promise<AlertReceiver> {
  const alerts: AlertMessage[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      alerts.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    alerts,
    url: (path = '/alerts') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
