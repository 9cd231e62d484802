import { expectedKeys, REQUIRED_KEYS } from '../pipeline/site/archetypes.js';
import type { Gate, IssueDraft } from './types.js';

/** The section of a page (first folder under content_root), which picks its archetype. */
export function sectionOfPath(path: string, contentRoot: string): string {
  return path.slice(contentRoot.length + 1).split('/')[0] ?? '';
}

/** FrontMatter: valid YAML front matter with title, description, weight and the keys the site's archetype expects. */
export const frontMatterGate: Gate = {
  name: 'FrontMatter',
  async run({ pages, siteRoot, contentRoot }) {
    const issues: IssueDraft[] = [];
    for (const page of pages) {
      const fm = page.frontMatter;
      if (!fm.present) {
        issues.push({
          severity: 'blocker',
          error_code: 'FRONT_MATTER_MISSING',
          message: 'The page has no front matter',
          path: page.path,
          line: 1,
          suggested_fix: 'Add YAML front matter with title, description and weight',
        });
        continue;
      }
      if (fm.data === null) {
        issues.push({
          severity: 'blocker',
          error_code: 'FRONT_MATTER_INVALID',
          message: `The front matter is not valid: ${fm.error ?? 'unreadable'}`,
          path: page.path,
          line: 1,
          suggested_fix: 'Rewrite the front matter as a YAML mapping between --- lines',
        });
        continue;
      }
      const data = fm.data;
      const wanted = [
        ...REQUIRED_KEYS,
        ...(await expectedKeys(siteRoot, sectionOfPath(page.path, contentRoot))).map((entry) => entry.key),
      ];
      for (const key of [...new Set(wanted)]) {
        if (!(key in data)) {
          issues.push({
            severity: 'error',
            error_code: 'FRONT_MATTER_MISSING_KEY',
            message: `Front matter key "${key}" is missing`,
            path: page.path,
            line: 1,
            suggested_fix: `Add the "${key}" key to the front matter`,
          });
        }
      }
      for (const key of ['title', 'description'] as const) {
        if (key in data && (typeof data[key] !== 'string' || (data[key] as string).trim() === '')) {
          issues.push({
            severity: 'error',
            error_code: 'FRONT_MATTER_INVALID_VALUE',
            message: `Front matter key "${key}" must be a non-empty string`,
            path: page.path,
            line: 1,
            suggested_fix: `Set "${key}" to a non-empty string`,
          });
        }
      }
      if ('weight' in data && !Number.isInteger(data.weight)) {
        issues.push({
          severity: 'error',
          error_code: 'FRONT_MATTER_INVALID_VALUE',
          message: 'Front matter key "weight" must be an integer',
          path: page.path,
          line: 1,
          suggested_fix: 'Set "weight" to an integer',
        });
      }
    }
    return issues;
  },
};
