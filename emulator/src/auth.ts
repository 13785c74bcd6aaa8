/**
 * OAuth2 client credentials as the contract describes it (django-oauth-toolkit habits):
 * POST /v3.0/oauth2/token with Basic auth + form body; opaque 30-char bearer tokens.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock';
import { EmulatorApiError, mediaTypeOf } from './http';
import type { EmulatorClient, TokenResponse } from './types';

const TOKEN_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const TOKEN_LENGTH = 30;

interface TokenRecord {
  clientId: string;
  scope: string;
  expiresAt: number;
  revoked: boolean;
}

export interface AuthedClient {
  clientId: string;
  scope: string;
  canWrite: boolean;
}

function sameSecret(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

function newToken(): string {
  let out = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) out += TOKEN_CHARS[randomInt(TOKEN_CHARS.length)];
  return out;
}

const unauthorized = (detail: string, error?: string): EmulatorApiError =>
  new EmulatorApiError(
    401,
    { detail },
    {
      'www-authenticate': error
        ? `Bearer realm="api",error="${error}",error_description="${detail}"`
        : 'Bearer realm="api"',
    }
  );

export class Auth {
  private readonly clients = new Map<string, Required<EmulatorClient>>();
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(
    clients: EmulatorClient[],
    private readonly clock: Clock
  ) {
    for (const c of clients) this.addClient(c);
  }

  addClient(c: EmulatorClient): void {
    if (
      !c ||
      typeof c.clientId !== 'string' ||
      !c.clientId ||
      typeof c.clientSecret !== 'string' ||
      !c.clientSecret
    ) {
      throw new TypeError('a client needs a non-empty clientId and clientSecret');
    }
    this.clients.set(c.clientId, {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      scope: c.scope ?? 'write read',
    });
  }

  listClients(): Required<EmulatorClient>[] {
    return [...this.clients.values()].map((c) => ({ ...c }));
  }

  /** Issue a token for a known client. */
  issue(clientId: string, ttlSeconds: number): TokenResponse {
    const client = this.clients.get(clientId);
    if (!client) throw new Error(`unknown client ${clientId}`);
    if (this.tokens.size > 10_000) this.purge();
    let token = newToken();
    while (this.tokens.has(token)) token = newToken();
    this.tokens.set(token, {
      clientId,
      scope: client.scope,
      expiresAt: this.clock.now() + ttlSeconds * 1000,
      revoked: false,
    });
    return {
      access_token: token,
      expires_in: ttlSeconds,
      scope: client.scope,
      token_type: 'Bearer',
    };
  }

  private purge(): void {
    const now = this.clock.now();
    for (const [t, r] of this.tokens) if (r.revoked || r.expiresAt <= now) this.tokens.delete(t);
  }

  /**
   * Handle POST /v3.0/oauth2/token. Returns the issued token and the client id, or throws
   * the OAuth2 error answer. `strict` insists on the contract's form (Basic header + client_id).
   */
  tokenRequest(
    headers: { authorization?: string; 'content-type'?: string },
    body: Buffer,
    strict: boolean,
    ttlSeconds: number
  ): { clientId: string; token: TokenResponse; form: Record<string, string> } {
    const type = mediaTypeOf(headers['content-type']);
    if (type !== 'application/x-www-form-urlencoded') {
      throw new EmulatorApiError(400, {
        error: 'invalid_request',
        error_description: 'Content-Type must be application/x-www-form-urlencoded.',
      });
    }
    const params = new URLSearchParams(body.toString('utf8'));
    const form: Record<string, string> = {};
    for (const [k, v] of params) form[k] = v;

    // oauthlib checks the grant type before it authenticates the client.
    if (form.grant_type !== 'client_credentials') {
      throw new EmulatorApiError(400, { error: 'unsupported_grant_type' });
    }

    let basicId: string | undefined;
    let basicSecret: string | undefined;
    const auth = headers.authorization;
    if (auth && /^basic /i.test(auth)) {
      const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        const dec = (s: string): string => {
          try {
            return decodeURIComponent(s.replace(/\+/g, ' '));
          } catch {
            return s;
          }
        };
        basicId = dec(decoded.slice(0, colon));
        basicSecret = dec(decoded.slice(colon + 1));
      }
    }
    const invalidClient = new EmulatorApiError(
      401,
      { error: 'invalid_client' },
      { 'www-authenticate': 'Basic realm="api"' }
    );
    if (strict) {
      if (basicId === undefined) throw invalidClient;
      if (!form.client_id) {
        throw new EmulatorApiError(400, {
          error: 'invalid_request',
          error_description: 'Missing client_id parameter.',
        });
      }
    }
    const clientId = basicId ?? form.client_id;
    const secret = basicSecret ?? (strict ? undefined : form.client_secret);
    if (!clientId || secret === undefined) throw invalidClient;
    if (form.client_id && form.client_id !== clientId) throw invalidClient;
    const client = this.clients.get(clientId);
    if (!client || !sameSecret(client.clientSecret, secret)) throw invalidClient;
    return { clientId, token: this.issue(clientId, ttlSeconds), form };
  }

  /** Check a Bearer Authorization header; throws the 401 answer. */
  authenticate(header: string | undefined): AuthedClient {
    if (!header || !/^bearer /i.test(header))
      throw unauthorized('Authentication credentials were not provided.');
    const token = header.slice(7).trim();
    const rec = this.tokens.get(token);
    if (!rec) throw unauthorized('Invalid token.', 'invalid_token');
    if (rec.revoked) throw unauthorized('Token revoked.', 'invalid_token');
    if (rec.expiresAt <= this.clock.now()) throw unauthorized('Token expired.', 'invalid_token');
    const scopes = rec.scope.split(/\s+/);
    return { clientId: rec.clientId, scope: rec.scope, canWrite: scopes.includes('write') };
  }

  /** Client id of a Basic header, without checking it (rate-limit key of token requests). */
  static basicClientId(header: string | undefined): string | null {
    if (!header || !/^basic /i.test(header)) return null;
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon > 0 ? decoded.slice(0, colon) : null;
  }

  revoke(target?: string | { token?: string; clientId?: string }): number {
    const t = typeof target === 'string' ? { token: target } : (target ?? {});
    let n = 0;
    for (const [token, rec] of this.tokens) {
      if (rec.revoked) continue;
      if (t.token !== undefined && token !== t.token) continue;
      if (t.clientId !== undefined && rec.clientId !== t.clientId) continue;
      rec.revoked = true;
      n++;
    }
    return n;
  }

  activeCount(): number {
    const now = this.clock.now();
    let n = 0;
    for (const r of this.tokens.values()) if (!r.revoked && r.expiresAt > now) n++;
    return n;
  }

  clearTokens(): void {
    this.tokens.clear();
  }

  resetClients(clients: EmulatorClient[]): void {
    this.clients.clear();
    for (const c of clients) this.addClient(c);
  }
}
