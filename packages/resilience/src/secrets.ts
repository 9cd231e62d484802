const REDACTED = '[REDACTED]';

/**
 * The secrets this process knows (API keys, tokens). Every log line and error message passes through
 * `redactSecrets`, so a secret that slips into a message (an upstream echoing a URL, say) never leaves.
 */
const knownSecrets = new Set<string>();

/** Registers a secret value; values shorter than 4 characters are ignored (they would redact ordinary text). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= 4) knownSecrets.add(value);
}

/** Replaces every registered secret (and its URL-encoded form) in `text`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

export const REDACTION_MARK = REDACTED;
