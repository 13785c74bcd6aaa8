// Keeps the client secret and tokens out of all the client hands back or logs; out of received
// text too, since a server may echo a header or a form back in an error page.

export const REDACTED = '[redacted]';

// Keys whose values are credentials whatever they contain.
const SECRET_KEY =
  /^(authorization|proxy-authorization|access_token|refresh_token|client_secret|password|token|secret)$/i;

const MIN_SECRET_LENGTH = 4;

// Tokens are renewed; the last few stay redacted because a late log line may still carry one.
const MAX_TOKENS_REMEMBERED = 8;

export type Redactor = ReturnType<typeof createRedactor>;

export function createRedactor(initial: string[]) {
  // Shorter strings would match inside ordinary words and mangle messages.
  const usable = (secret: string) => secret.length >= MIN_SECRET_LENGTH;
  const fixed = new Set(initial.filter(usable));
  const rotating: string[] = [];

  const redactText = (input: string): string => {
    let out = input
      .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
      .replace(
        /("?(?:access_token|refresh_token|client_secret)"?\s*[:=]\s*"?)[^"&\s,}]+/gi,
        `$1${REDACTED}`
      );
    for (const secret of [...fixed, ...rotating]) {
      out = out.replaceAll(secret, REDACTED);
    }
    return out;
  };

  const redactValue = (input: unknown, depth: number): unknown => {
    if (typeof input === 'string') return redactText(input);
    if (input === null || typeof input !== 'object' || depth > 20) return input;
    if (Array.isArray(input)) return input.map((item) => redactValue(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, val] of Object.entries(input as Record<string, unknown>)) {
      out[key] = SECRET_KEY.test(key) ? REDACTED : redactValue(val, depth + 1);
    }
    return out;
  };

  return {
    addSecret(secret: string) {
      if (!usable(secret) || fixed.has(secret) || rotating.includes(secret)) return;
      rotating.push(secret);
      if (rotating.length > MAX_TOKENS_REMEMBERED) rotating.shift();
    },
    text: redactText,
    value: <T>(input: T) => redactValue(input, 0) as T,
  };
}
