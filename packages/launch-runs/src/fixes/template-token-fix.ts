import { TEMPLATE_TOKEN } from '../gates/template-tokens.js';
import { escapeMarkdownText } from '../pipeline/markdown/inline.js';
import { editOutsideCode, replaceLine } from './lines.js';
import type { FixInput, FixOutcome } from './types.js';

/** Placeholders whose value the run knows (names only: a value that states a fact would need a claim). */
function knownValue(token: string, input: FixInput): string | undefined {
  const name = token
    .replace(/^__|__$/g, '')
    .replace(/^\{\{\s*|\s*\}\}$/g, '')
    .toUpperCase();
  switch (name) {
    case 'PRODUCT':
    case 'PRODUCT_NAME':
    case 'NAME':
      return escapeMarkdownText(input.config.product_name);
    case 'PRODUCT_SLUG':
    case 'SLUG':
      return input.config.product_slug;
    default:
      return undefined;
  }
}

/** TemplateTokens fix: the token gets its value when it names the product, else it is removed. */
export function fixTemplateToken(input: FixInput): FixOutcome {
  const { issue, page } = input;
  const text = page.text;
  const line = page.lines[issue.location.line - 1];
  const token = /Unresolved template token (.+)$/.exec(issue.message)?.[1];
  if (line === undefined || token === undefined)
    return { kind: 'none', text, description: 'Nothing to replace' };
  const value = knownValue(token, input);
  let done = false;
  const edited = editOutsideCode(line, (prose) =>
    prose.replace(new RegExp(TEMPLATE_TOKEN.source, 'g'), (found) => {
      if (done || found !== token) return found;
      done = true;
      return value ?? '';
    }),
  );
  const cleaned =
    value === undefined
      ? edited
          .replace(/ {2,}/g, ' ')
          .replace(/\s+([.,;:!?])/g, '$1')
          .trimEnd()
      : edited;
  return {
    kind: value === undefined ? 'remove_template_token' : 'resolve_template_token',
    text: replaceLine(text, issue.location.line, cleaned),
    description: value === undefined ? `Removed ${token}` : `Replaced ${token} with ${value}`,
  };
}
