import { parseDocument } from 'yaml';

/** A page's YAML front matter (`---` fenced at the top of the file). Lines are 1-based in the whole file. */
export interface FrontMatter {
  /** Whether the file starts with a front matter fence at all. */
  present: boolean;
  /** `yaml` (---), `toml` (+++) or null when absent. */
  format: 'yaml' | 'toml' | null;
  raw: string;
  /** The parsed mapping when it is valid YAML, else null. */
  data: Record<string, unknown> | null;
  /** Why it is not a valid YAML mapping, when it is not. */
  error: string | null;
  /** Line of the closing fence (0 when absent). */
  endLine: number;
  /** 1-based line where the body starts. */
  bodyStartLine: number;
  body: string;
}

const FENCES: Record<string, 'yaml' | 'toml'> = { '---': 'yaml', '+++': 'toml' };

export function splitFrontMatter(text: string): FrontMatter {
  const lines = text.split('\n');
  const first = (lines[0] ?? '').replace(/\r$/, '').trimEnd();
  const format = FENCES[first];
  if (format === undefined) {
    return {
      present: false,
      format: null,
      raw: '',
      data: null,
      error: null,
      endLine: 0,
      bodyStartLine: 1,
      body: text,
    };
  }
  let close = -1;
  for (let index = 1; index < lines.length; index += 1) {
    const line = (lines[index] ?? '').replace(/\r$/, '').trimEnd();
    if (line === first || (format === 'yaml' && line === '...')) {
      close = index;
      break;
    }
  }
  if (close === -1) {
    return {
      present: true,
      format,
      raw: lines.slice(1).join('\n'),
      data: null,
      error: 'the front matter is not closed',
      endLine: 0,
      bodyStartLine: 1,
      body: text,
    };
  }
  const raw = lines.slice(1, close).join('\n');
  const body = lines.slice(close + 1).join('\n');
  if (format === 'toml') {
    return {
      present: true,
      format,
      raw,
      data: null,
      error: 'front matter must be YAML (--- fenced)',
      endLine: close + 1,
      bodyStartLine: close + 2,
      body,
    };
  }
  const parsed = parseYamlMapping(raw);
  return { present: true, format, raw, ...parsed, endLine: close + 1, bodyStartLine: close + 2, body };
}

export function parseYamlMapping(raw: string): {
  data: Record<string, unknown> | null;
  error: string | null;
} {
  const document = parseDocument(raw, { uniqueKeys: true, prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError !== undefined)
    return { data: null, error: firstError.message.split('\n')[0] ?? 'invalid YAML' };
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return { data: {}, error: null };
  if (typeof value !== 'object' || Array.isArray(value))
    return { data: null, error: 'front matter must be a mapping' };
  return { data: value as Record<string, unknown>, error: null };
}
