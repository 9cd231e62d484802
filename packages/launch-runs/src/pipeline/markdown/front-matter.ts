import { parseDocument } from 'yaml';

/**
 * A page's front matter: YAML between `---` lines at the top of the file (`...` may close it); TOML (`+++`)
 * is recognised and refused. Lines are 1-based in the whole file.
 */
export interface FrontMatter {
  /** Whether the file starts with a front matter fence at all. */
  present: boolean;
  raw: string;
  /** The parsed mapping when it is valid YAML, else null and `error` says why. */
  data: Record<string, unknown> | null;
  error: string | null;
  /** The closing fence's line (0 when absent or unclosed), then the body (all the text unless closed). */
  endLine: number;
  bodyStartLine: number;
  body: string;
}

type YamlMapping = Pick<FrontMatter, 'data' | 'error'>;

const CLOSING_FENCES: Partial<Record<string, readonly string[]>> = { '---': ['---', '...'], '+++': ['+++'] };
const TOML: YamlMapping = { data: null, error: 'front matter must be YAML (--- fenced)' };

export function splitFrontMatter(text: string): FrontMatter {
  const lines = text.split('\n');
  const opening = lines[0]!.trimEnd();
  const closing = CLOSING_FENCES[opening];
  const close = lines.findIndex((line, index) => index > 0 && closing?.includes(line.trimEnd()));
  if (close === -1) {
    const present = closing !== undefined;
    const raw = present ? lines.slice(1).join('\n') : '';
    const error = present ? 'the front matter is not closed' : null;
    return { present, raw, data: null, error, endLine: 0, bodyStartLine: 1, body: text };
  }
  const raw = lines.slice(1, close).join('\n');
  return {
    present: true,
    raw,
    ...(opening === '---' ? parseYamlMapping(raw) : TOML),
    endLine: close + 1,
    bodyStartLine: close + 2,
    body: lines.slice(close + 1).join('\n'),
  };
}

/** The mapping `raw` holds, or the first line of why it is not one (yaml errors, or what toJS refuses). */
export function parseYamlMapping(raw: string): YamlMapping {
  let value: unknown;
  try {
    const document = parseDocument(raw, { uniqueKeys: true, prettyErrors: false });
    if (document.errors[0] !== undefined) throw document.errors[0];
    // toJS throws on what parses but cannot be read: a dangling alias, an alias bomb (maxAliasCount).
    value = document.toJS();
  } catch (error) {
    return { data: null, error: (error as Error).message.split('\n')[0]! };
  }
  if (value === null || value === undefined) return { data: {}, error: null };
  if (typeof value !== 'object' || Array.isArray(value))
    return { data: null, error: 'front matter must be a mapping' };
  return { data: value as Record<string, unknown>, error: null };
}
