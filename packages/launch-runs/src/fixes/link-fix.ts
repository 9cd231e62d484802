import { posix } from 'node:path';
import { resolveLink } from '../gates/internal-links.js';
import { linkDefinition } from '../gates/page-doc.js';
import { compareCodePoints } from '../canonical-json.js';
import { escapeRegExp } from '../escape-regexp.js';
import { replaceLine } from './lines.js';
import type { FixInput, FixOutcome } from './types.js';

function tokens(path: string): string[] {
  return path
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token !== '' && token !== 'md' && token !== 'index');
}

function lastSegment(path: string): string {
  return (
    tokens(path.replace(/\.(md|markdown)$/i, ''))
      .join('-')
      .split('-')
      .slice(-1)[0] ?? ''
  );
}

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return length;
}

/**
 * The planned page a broken link most likely means: shared path words that are specific (not the section
 * or product), or a shared start of the last segment (install -> installation). Deterministic: best score,
 * then url_path order. Undefined when no planned page is a plausible target.
 */
export function plannedTarget(input: FixInput, href: string): string | undefined {
  const target = href.split('#')[0] ?? '';
  const generic = new Set<string>([
    input.config.product_slug,
    ...input.plan.sections.map((entry) => entry.section),
  ]);
  const wanted = tokens(target);
  const wantedLast = lastSegment(target);
  let best: { url: string; score: number } | undefined;
  for (const page of [...input.plan.pages].sort((a, b) => compareCodePoints(a.url_path, b.url_path))) {
    const have = tokens(page.url_path);
    const shared = wanted.filter((token) => have.includes(token));
    const specific = shared.filter((token) => !generic.has(token)).length;
    const prefix = commonPrefix(wantedLast, lastSegment(page.url_path));
    if (specific === 0 && prefix < 4) continue;
    const score = specific * 10 + shared.length * 3 + prefix;
    if (best === undefined || score > best.score) best = { url: page.url_path, score };
  }
  return best?.url;
}

/** Raw spellings of an href as it may appear in the Markdown source. */
function rawForms(href: string): string[] {
  const forms = new Set([href]);
  try {
    forms.add(decodeURI(href));
  } catch {
    // not encoded
  }
  return [...forms];
}

/** `line` with `link` replaced by `replacement`, and the spaces a removed link leaves behind closed up. */
function withoutLink(line: string, link: string, replacement: string): string {
  return line
    .replace(link, replacement)
    .replace(/\s{2,}/g, ' ')
    .trimEnd();
}

/**
 * A reference-style link (`[text][label]`, `[label][]`, `[label]`) whose definition `[label]: raw` sits on
 * another line, where the gate does not report it: the definition is re-pointed at `next`, or, without
 * one, the use on the issue's line is unlinked (an image removed) and the definition left for other uses.
 */
function fixReference(
  { issue, page }: FixInput,
  raw: string,
  next: string | undefined,
  kind: 'repoint_link' | 'drop_anchor' | 'unlink',
  description: string,
): FixOutcome | undefined {
  const index = page.lines.findIndex(
    (candidate, at) => page.kinds[at] === 'other' && linkDefinition(candidate)?.url === raw,
  );
  const defined = index === -1 ? undefined : linkDefinition(page.lines[index]!);
  if (defined === undefined) return undefined;
  if (next !== undefined) {
    const edited = page.lines[index]!.replace(defined.source, `${defined.lead}${next}`);
    return { kind, text: replaceLine(page.text, index + 1, edited), description };
  }
  const line = page.lines[issue.location.line - 1]!;
  const label = escapeRegExp(defined.label);
  const use = new RegExp(`(!?)\\[(?:([^\\]]*)\\]\\[${label}\\]|(${label})\\](?:\\[\\])?(?![(:]))`, 'i');
  const used = use.exec(line);
  if (used === null) return undefined;
  const image = used[1] === '!';
  return {
    kind: image ? 'remove_image' : kind,
    text: replaceLine(
      page.text,
      issue.location.line,
      withoutLink(line, used[0], image ? '' : (used[2] ?? used[3])!),
    ),
    description: image ? `Removed the image ${raw}` : description,
  };
}

/**
 * InternalLinks fixes: a broken link is re-pointed at the planned page it means, or unlinked (its text
 * kept; a broken image is removed); a broken anchor is dropped so the link lands on the page.
 */
export function fixInternalLink(input: FixInput): FixOutcome {
  const { issue, page } = input;
  const text = page.text;
  const lineNumber = issue.location.line;
  const line = page.lines[lineNumber - 1];
  if (line === undefined) return { kind: 'none', text, description: 'The line no longer exists' };
  const wanted = /^(?:Link target (.+) does not resolve|Anchor #\S* of (.+) does not match)/.exec(
    issue.message,
  );
  const named = wanted?.[1] ?? wanted?.[2];
  const broken = page.doc.links.filter(
    (link) => link.line === lineNumber && !resolveLink(input.site, page, link.href).ok,
  );
  const link = broken.find((candidate) => candidate.href === named) ?? broken[0];
  if (link === undefined) return { kind: 'none', text, description: 'The link resolves now' };

  for (const raw of rawForms(link.href)) {
    const inline = new RegExp(`(!?)\\[([^\\]]*)\\]\\(\\s*<?${escapeRegExp(raw)}>?((?:\\s+"[^"]*")?)\\s*\\)`);
    const match = inline.exec(line);
    if (issue.error_code === 'BROKEN_ANCHOR') {
      const withoutAnchor = raw.slice(0, raw.indexOf('#'));
      const next = withoutAnchor === '' ? undefined : withoutAnchor;
      if (match !== null) {
        const replacement = next === undefined ? match[2]! : `${match[1]}[${match[2]}](${next}${match[3]})`;
        return {
          kind: 'drop_anchor',
          text: replaceLine(text, lineNumber, line.replace(match[0], replacement)),
          description: `Dropped the anchor of ${raw}`,
        };
      }
      const reference = fixReference(input, raw, next, 'drop_anchor', `Dropped the anchor of ${raw}`);
      if (reference !== undefined) return reference;
      continue;
    }
    const target = plannedTarget(input, raw);
    if (match !== null) {
      if (match[1] === '!' || target === undefined) {
        const replacement = match[1] === '!' ? '' : match[2]!;
        return {
          kind: match[1] === '!' ? 'remove_image' : 'unlink',
          text: replaceLine(text, lineNumber, withoutLink(line, match[0], replacement)),
          description:
            match[1] === '!' ? `Removed the image ${raw}` : `Unlinked ${raw} (no planned page matches)`,
        };
      }
      return {
        kind: 'repoint_link',
        text: replaceLine(text, lineNumber, line.replace(match[0], `[${match[2]}](${target}${match[3]})`)),
        description: `Re-pointed ${raw} to the planned page ${target}`,
      };
    }
    const description =
      target === undefined
        ? `Unlinked ${raw} (no planned page matches)`
        : `Re-pointed ${raw} to the planned page ${target}`;
    const reference = fixReference(
      input,
      raw,
      target,
      target === undefined ? 'unlink' : 'repoint_link',
      description,
    );
    if (reference !== undefined) return reference;
  }
  return {
    kind: 'none',
    text,
    description: `Could not locate ${posix.basename(link.href)} in the source line`,
  };
}
