import { withoutCodeSpans } from './page-doc.js';
import type { Gate, IssueDraft } from './types.js';

/** `__UPPER_SNAKE__` placeholders and `{{ ... }}` template expressions (Hugo shortcodes `{{< >}}`/`{{% %}}` excluded). */
export const TEMPLATE_TOKEN = /__[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*__|\{\{(?![<%])[\s\S]*?\}\}/g;

/** TemplateTokens: no unresolved placeholder in the front matter or the prose (code is left alone). */
export const templateTokensGate: Gate = {
  name: 'TemplateTokens',
  run({ pages }) {
    const issues: IssueDraft[] = [];
    for (const page of pages) {
      page.lines.forEach((line, index) => {
        if (page.kinds[index] === 'code') return;
        for (const match of withoutCodeSpans(line).matchAll(TEMPLATE_TOKEN)) {
          issues.push({
            severity: 'error',
            error_code: 'UNRESOLVED_TEMPLATE_TOKEN',
            message: `Unresolved template token ${match[0]}`,
            path: page.path,
            line: index + 1,
            suggested_fix: `Replace ${match[0]} with its value or remove it`,
          });
        }
      });
    }
    return issues;
  },
};
