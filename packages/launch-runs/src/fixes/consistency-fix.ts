import { productNamePattern, splitProse } from '../gates/consistency.js';
import { editOutsideCode, replaceLine } from './lines.js';
import type { FixInput, FixOutcome } from './types.js';

/** Consistency fixes: the variant on the line is rewritten as the canonical name, URL or command. */
export function fixConsistency(input: FixInput): FixOutcome {
  const { issue, page, facts, config } = input;
  const text = page.text;
  const lineNumber = issue.location.line;
  const line = page.lines[lineNumber - 1];
  if (line === undefined) return { kind: 'none', text, description: 'The line no longer exists' };
  switch (issue.error_code) {
    case 'INCONSISTENT_PRODUCT_NAME': {
      const variant = /written "([^"]+)"/.exec(issue.message)?.[1];
      if (variant === undefined) break;
      const pattern = productNamePattern(variant, 'gu');
      const edited = editOutsideCode(line, (prose) =>
        splitProse(prose)
          .map((part, index) => (index % 2 === 1 ? part : part.replace(pattern, config.product_name)))
          .join(''),
      );
      return {
        kind: 'align_product_name',
        text: replaceLine(text, lineNumber, edited),
        description: `Wrote "${variant}" as "${config.product_name}"`,
      };
    }
    case 'INCONSISTENT_REPOSITORY_URL': {
      const variant = /^Repository URL (\S+) differs/.exec(issue.message)?.[1];
      const canonical = facts.product.repository_url;
      if (variant === undefined || canonical === null) break;
      const tail = new URL(variant.replace(/^git\+/, '')).pathname
        .split('/')
        .filter((part) => part !== '')
        .slice(2)
        .join('/');
      const replacement = tail === '' ? canonical : `${canonical}/${tail}`;
      return {
        kind: 'align_repository_url',
        text: replaceLine(text, lineNumber, line.split(variant).join(replacement)),
        description: `Replaced ${variant} with ${replacement}`,
      };
    }
    case 'INCONSISTENT_INSTALL_COMMAND': {
      const variant = /^Install command "([^"]+)" differs/.exec(issue.message)?.[1];
      const canonical = facts.product.install_command;
      if (variant === undefined || canonical === null) break;
      return {
        kind: 'align_install_command',
        text: replaceLine(text, lineNumber, line.split(variant).join(canonical)),
        description: `Replaced "${variant}" with "${canonical}"`,
      };
    }
    default:
      break;
  }
  return { kind: 'none', text, description: 'Nothing to align' };
}
