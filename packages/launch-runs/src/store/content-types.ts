const BY_EXTENSION: Readonly<Record<string, string>> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  log: 'text/plain',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  html: 'text/html',
  csv: 'text/csv',
  diff: 'text/x-diff',
  patch: 'text/x-diff',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
};

/** The media type of an artifact: the writer's, else by extension, else text/plain for strings. */
export function contentTypeFor(name: string, content: string | Uint8Array, explicit?: string): string {
  if (explicit !== undefined && explicit.trim() !== '') return explicit.trim();
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return BY_EXTENSION[extension] ?? (typeof content === 'string' ? 'text/plain' : 'application/octet-stream');
}

/** Whether a media type is text a client can read as is (the bytes must also be valid UTF-8). */
export function isTextualType(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    base.startsWith('text/') ||
    base === 'application/json' ||
    base.endsWith('+json') ||
    base === 'application/x-ndjson' ||
    base === 'application/yaml' ||
    base === 'application/toml' ||
    base.endsWith('+xml') ||
    base === 'application/xml'
  );
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
