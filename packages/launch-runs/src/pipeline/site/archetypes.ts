import { parse as parseYaml } from 'yaml';
import { readSiteFile } from '../site-files.js';

/** A front matter key the site's archetype declares, with its literal default (null for a template value). */
export interface ExpectedKey {
  key: string;
  default: unknown;
}

/** Keys every page must have (design, binding). */
export const REQUIRED_KEYS = ['title', 'description', 'weight'] as const;

/**
 * The keys the site expects on a page of `section`: those of its Hugo archetype (`archetypes/<section>.md`,
 * else `archetypes/default.md`), YAML (`---`) or TOML (`+++`). Template values (`{{ .Date }}`) have no
 * literal default.
 */
export async function expectedKeys(siteRoot: string, section: string): Promise<ExpectedKey[]> {
  for (const candidate of [`archetypes/${section}.md`, 'archetypes/default.md']) {
    let text: string | undefined;
    try {
      text = await readSiteFile(siteRoot, candidate);
    } catch {
      text = undefined;
    }
    if (text !== undefined) return archetypeKeys(text);
  }
  return [];
}

export function archetypeKeys(text: string): ExpectedKey[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const fence = lines[0]?.trimEnd();
  if (fence !== '---' && fence !== '+++') return [];
  const keys: ExpectedKey[] = [];
  const separator = fence === '---' ? ':' : '=';
  for (const line of lines.slice(1)) {
    if (line.trimEnd() === fence) break;
    const match = new RegExp(`^([A-Za-z_][\\w-]*)\\s*${separator}\\s*(.*)$`).exec(line);
    if (match === null) continue;
    const raw = match[2]!.trim();
    let value: unknown = null;
    if (raw !== '' && !raw.includes('{{')) {
      try {
        value = parseYaml(raw);
      } catch {
        value = null;
      }
    }
    if (!keys.some((entry) => entry.key === match[1])) keys.push({ key: match[1]!, default: value ?? null });
  }
  return keys;
}
