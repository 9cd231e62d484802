import { parseDocument, stringify } from 'yaml';
import { sectionOfPath } from '../gates/front-matter-gate.js';
import { frontMatterValue, launchFrontMatter } from '../pipeline/front-matter-values.js';
import { parseYamlMapping } from '../pipeline/markdown/front-matter.js';
import { renderFrontMatter } from '../pipeline/render.js';
import { expectedKeys } from '../pipeline/site/archetypes.js';
import { deleteLines, insertLines, splitLines } from './lines.js';
import type { FixInput, FixOutcome, Fixer } from './types.js';

/** Title, description and weight for a page: the plan's when the run planned it, else from its content. */
function pageFacts(input: FixInput): { title: string; description: string; weight: number; urlPath: string } {
  const planned = input.plan.pages.find((page) => page.path === input.page.path);
  if (planned !== undefined) {
    return {
      title: planned.title,
      description: planned.description,
      weight: planned.weight,
      urlPath: planned.url_path,
    };
  }
  const heading = input.page.doc.blocks.find((block) => block.type === 'heading');
  const base = input.page.path
    .split('/')
    .pop()!
    .replace(/\.(md|markdown)$/i, '');
  const fromName =
    base === '_index' || base === 'index' ? (input.page.path.split('/').slice(-2, -1)[0] ?? base) : base;
  const title = heading?.text ?? fromName.replace(/[-_]+/g, ' ').replace(/^\w/, (char) => char.toUpperCase());
  return { title, description: title, weight: 100, urlPath: input.site.urlOf(input.page) };
}

async function valueFor(input: FixInput, key: string, committedAt: string): Promise<unknown> {
  const expected = await expectedKeys(input.siteRoot, sectionOfPath(input.page.path, input.contentRoot));
  const entry = expected.find((candidate) => candidate.key === key);
  return frontMatterValue(key, pageFacts(input), {
    config: input.config,
    committedAt,
    archetypeDefault: entry?.default ?? null,
  });
}

/** The key an issue names (`Front matter key "x" ...`). */
function keyOf(message: string): string | undefined {
  return /key "([^"]+)"/.exec(message)?.[1];
}

/** Top-level `key: value` lines of a broken front matter that still parse on their own. */
function salvage(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of raw.split('\n')) {
    if (!/^[A-Za-z_][\w-]*\s*:/.test(line)) continue;
    const parsed = parseYamlMapping(line);
    if (parsed.data !== null) Object.assign(out, parsed.data);
  }
  return out;
}

/** Last line of a front matter whose closing fence is missing: the YAML-looking lines after the opening fence. */
function unclosedEnd(lines: readonly string[]): number {
  let end = 1;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || !/^(\s|#|- |[\w"'-]+\s*:)/.test(line)) break;
    end = index + 1;
  }
  return end;
}

export function makeFrontMatterFixer(committedAt: string): Fixer {
  return async (input): Promise<FixOutcome> => {
    const { issue, page } = input;
    const text = page.text;
    const fm = page.frontMatter;
    switch (issue.error_code) {
      case 'FRONT_MATTER_MISSING':
      case 'FRONT_MATTER_INVALID': {
        const expected = await expectedKeys(input.siteRoot, sectionOfPath(page.path, input.contentRoot));
        const built = launchFrontMatter(pageFacts(input), expected, input.config, committedAt);
        const kept = fm.present ? salvage(fm.raw) : {};
        const block = renderFrontMatter({ ...built, ...kept });
        if (!fm.present) {
          return {
            kind: 'add_front_matter',
            text: `${block}\n${text}`,
            description: 'Added front matter with the required keys',
          };
        }
        const end = fm.endLine > 0 ? fm.endLine : unclosedEnd(splitLines(text));
        const rest = deleteLines(text, 1, end);
        return {
          kind: 'rebuild_front_matter',
          text: `${block}${rest}`,
          description: 'Rebuilt the front matter from the keys that parse',
        };
      }
      case 'FRONT_MATTER_MISSING_KEY': {
        const key = keyOf(issue.message);
        if (key === undefined || fm.data === null || key in fm.data)
          return { kind: 'none', text, description: 'Nothing to add' };
        const value = await valueFor(input, key, committedAt);
        const line = stringify({ [key]: value }, { lineWidth: 0 }).replace(/\n$/, '');
        return {
          kind: 'add_front_matter_key',
          text: insertLines(text, fm.endLine, splitLines(line)),
          description: `Added front matter key "${key}"`,
        };
      }
      case 'FRONT_MATTER_INVALID_VALUE': {
        const key = keyOf(issue.message);
        if (key === undefined || fm.data === null)
          return { kind: 'none', text, description: 'Nothing to change' };
        const document = parseDocument(fm.raw);
        document.set(key, await valueFor(input, key, committedAt));
        const lines = splitLines(text);
        const rebuilt = [
          lines[0]!,
          ...String(document).replace(/\n$/, '').split('\n'),
          ...lines.slice(fm.endLine - 1),
        ];
        return {
          kind: 'set_front_matter_value',
          text: rebuilt.join('\n'),
          description: `Set front matter key "${key}"`,
        };
      }
      default:
        return { kind: 'none', text, description: 'No fix for this front matter issue' };
    }
  };
}
