import { escapeRegExp } from '../escape-regexp.js';
import { linkDefinition, withoutCodeSpans } from './page-doc.js';
import type { Gate, IssueDraft } from './types.js';

/** What no reader sees as prose: a comment, a link's target, a full reference link's label, a URL. */
const NOT_PROSE = /(<!--[\s\S]*?-->|\]\([^)]*\)|\]\[[^\]]*\]|<?https?:\/\/[^\s>]*>?)/;

/** A line (outside code spans) split into prose, at even indexes, and what is not prose, at odd ones. */
export function splitProse(line: string): string[] {
  return line.split(NOT_PROSE);
}

/** The product name as a word of its own: not part of another word, path or file name. */
export function productNamePattern(name: string, flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_/.-])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, flags);
}

/** Occurrences of the product name written differently (case) in a line's prose, outside paths. */
export function productNameVariants(line: string, productName: string, allowed: readonly string[]): string[] {
  if (!/\p{L}/u.test(productName)) return [];
  const prose = splitProse(withoutCodeSpans(line))
    .filter((_, index) => index % 2 === 0)
    .join(' ')
    .replace(/\/[\w./-]*\//g, ' ');
  return [...prose.matchAll(productNamePattern(productName, 'giu'))]
    .map((match) => match[0])
    .filter((found) => found !== productName && !allowed.includes(found));
}

/** URLs of a line that name the product repository but differ from the canonical URL. */
export function repositoryVariants(line: string, canonical: string): string[] {
  let canonicalUrl: URL;
  try {
    canonicalUrl = new URL(canonical);
  } catch {
    return [];
  }
  const [owner, repo] = canonicalUrl.pathname.split('/').filter((part) => part !== '');
  if (owner === undefined || repo === undefined) return [];
  const out: string[] = [];
  for (const match of line.matchAll(/\b(?:https?|git\+https?|git):\/\/[^\s)<>"'`\]]+/gi)) {
    const found = match[0].replace(/[.,;:]+$/, '');
    let url: URL;
    try {
      url = new URL(found.replace(/^git\+/, ''));
    } catch {
      continue;
    }
    const [, foundRepo] = url.pathname.split('/').filter((part) => part !== '');
    if (url.hostname.toLowerCase() !== canonicalUrl.hostname.toLowerCase() || foundRepo === undefined)
      continue;
    if (foundRepo.replace(/\.git$/i, '').toLowerCase() !== repo.toLowerCase()) continue;
    const rest = found.slice(canonical.length);
    if (!(found.startsWith(canonical) && (rest === '' || /^[/#?]/.test(rest)))) out.push(found);
  }
  return out;
}

const INSTALL =
  /\b(npm (?:install|i|add)|pnpm (?:add|install|i)|yarn add|bun add|pip3? install|poetry add|uv add|cargo (?:add|install)|go (?:get|install))((?:\s+[\w@./:^~<>=*-]+)+)/g;

const compact = (value: string): string => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Install commands of a line for the product's package that are not written as the canonical command. */
export function installVariants(line: string, canonical: string, packageName: string): string[] {
  const manager = canonical.split(' ')[0];
  const out: string[] = [];
  for (const match of line.matchAll(INSTALL)) {
    const command = `${match[1]}${match[2]}`.replace(/\s+/g, ' ').trim();
    if (command.split(' ')[0] !== manager) continue;
    const args = match[2]!
      .trim()
      .split(/\s+/)
      .filter((arg) => !arg.startsWith('-'));
    const mentions = args.some((arg) => compact(arg.replace(/@[^/@]*$/, '')) === compact(packageName));
    if (mentions && command !== canonical) out.push(command);
  }
  return out;
}

/** Consistency: the product name, repository URL and install command are written the same everywhere. */
export const consistencyGate: Gate = {
  name: 'Consistency',
  run({ pages, facts, config }) {
    const issues: IssueDraft[] = [];
    const { package_name: packageName, repository_url: repository, install_command: install } = facts.product;
    const allowedNames = [packageName, config.product_slug].filter((name): name is string => name !== null);
    for (const page of pages) {
      page.lines.forEach((line, index) => {
        const kind = page.kinds[index];
        // Outside every block: blank lines, rules and link reference definitions. Only a definition's URL
        // is published (its label is not shown), so that is all that is checked there.
        const definedUrl = kind === 'other' ? linkDefinition(line)?.url : undefined;
        if (kind === 'code' || (kind === 'other' && definedUrl === undefined)) return;
        const lineNumber = index + 1;
        const names =
          definedUrl === undefined ? productNameVariants(line, config.product_name, allowedNames) : [];
        for (const variant of new Set(names)) {
          issues.push({
            severity: 'error',
            error_code: 'INCONSISTENT_PRODUCT_NAME',
            message: `Product name written "${variant}"; the product is "${config.product_name}"`,
            path: page.path,
            line: lineNumber,
            suggested_fix: `Write "${config.product_name}"`,
          });
        }
        if (repository !== null) {
          for (const variant of new Set(repositoryVariants(definedUrl ?? line, repository))) {
            issues.push({
              severity: 'error',
              error_code: 'INCONSISTENT_REPOSITORY_URL',
              message: `Repository URL ${variant} differs from ${repository}`,
              path: page.path,
              line: lineNumber,
              suggested_fix: `Use ${repository}`,
            });
          }
        }
        if (install !== null && packageName !== null && kind !== 'front' && definedUrl === undefined) {
          for (const variant of new Set(installVariants(line, install, packageName))) {
            issues.push({
              severity: 'error',
              error_code: 'INCONSISTENT_INSTALL_COMMAND',
              message: `Install command "${variant}" differs from "${install}"`,
              path: page.path,
              line: lineNumber,
              suggested_fix: `Use "${install}"`,
            });
          }
        }
      });
    }
    return issues;
  },
};
