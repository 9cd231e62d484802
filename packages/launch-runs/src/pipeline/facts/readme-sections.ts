/** What a README section is about, from its heading. */
export type ReadmeSection = 'intro' | 'features' | 'install' | 'usage' | 'api' | 'faq' | 'skip';

const RULES: [RegExp, ReadmeSection][] = [
  [/^(table of contents|contents|toc)$/, 'skip'],
  [/^(what is|about|overview|introduction|intro|description|motivation)\b/, 'intro'],
  [/^(features?|key features|highlights?|benefits?|why\b)/, 'features'],
  [/^(install(ation|ing)?|setup|set up|download|requirements|prerequisites)\b/, 'install'],
  [
    /^(usage|basic usage|quick ?start|getting started|get started|examples?|how to use|tutorial|guide|tips|recipes)\b/,
    'usage',
  ],
  [
    /^(api|api reference|reference|methods|functions|exports|commands|cli|command line|options|configuration|config)\b/,
    'api',
  ],
  [/^(faq|frequently asked questions|knowledge base|q ?& ?a|troubleshooting|common questions)\b/, 'faq'],
  [
    /^(licen[cs]e|contribut|changelog|change log|release notes|history|sponsor|backer|credit|acknowledg|author|maintainer|related|support|security|community|project stats|stats|thanks|donat|code of conduct|development|roadmap|browser support|similar)/,
    'skip',
  ],
];

/** The section a heading starts, or undefined when the heading does not name one. */
export function classifyHeading(text: string): ReadmeSection | undefined {
  const normalized = text
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .trim();
  for (const [pattern, section] of RULES) if (pattern.test(normalized)) return section;
  return undefined;
}
