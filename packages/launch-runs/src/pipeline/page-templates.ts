import type { Section } from '@switchyard/contracts/launch-runs';
import type { Claim, OutlineItem, Snippet } from './artifact-schemas.js';
import { escapeMarkdownText } from './markdown/inline.js';
import {
  claimItem,
  heading,
  orderedOutline,
  snippetUsable,
  type FactIndex,
  type PageDraft,
  type PlanInputs,
} from './plan-outline.js';

/** The pages of one section, by fixed templates (see docs/pipeline.md, W4). */
export function pagesFor(section: Section, inputs: PlanInputs, index: FactIndex): PageDraft[] {
  const { slug, name, snippets } = inputs;
  const usable = snippets.filter(snippetUsable);
  const bySection = (key: string): Snippet[] => usable.filter((snippet) => snippet.section === key);
  const quickExample = bySection('usage')[0] ?? bySection('intro')[0] ?? bySection('examples')[0];
  const overviewClaims = [...index.all('description'), ...index.all('summary')];
  const glance = [
    ...index.all('package_name'),
    ...index.all('version'),
    ...index.all('license'),
    ...index.all('runtime'),
    ...index.all('command'),
    ...index.all('repository'),
    ...index.all('homepage'),
  ];
  const section_ = (items: OutlineItem[], title: string): OutlineItem[] =>
    items.length === 0 ? [] : [heading(title), ...items];

  switch (section) {
    case 'products':
      return [
        {
          page_id: 'products/overview',
          section,
          template: 'products/overview',
          title: name,
          description: `Overview of ${name}.`,
          weight: 10,
          file: `${slug}.md`,
          url_path: `/products/${slug}/`,
          outline: [
            ...section_(
              overviewClaims.map((claim) => claimItem(claim, 'paragraph')),
              'Overview',
            ),
            ...section_(
              index.all('feature').map((claim) => claimItem(claim, 'bullet')),
              'Features',
            ),
            ...section_(
              quickExample === undefined ? [] : [{ type: 'snippet', snippet_id: quickExample.snippet_id }],
              'Example',
            ),
            ...section_(
              glance.map((claim) => claimItem(claim, 'bullet')),
              'At a glance',
            ),
          ],
          related: [
            'docs/getting-started',
            'docs/installation',
            'docs/usage',
            'reference/overview',
            'kb/faq',
            'blog/launch',
          ],
        },
      ];
    case 'docs': {
      const install = index.first('install');
      const installSection = orderedOutline(index.all('install_note'), bySection('install'), 2);
      const usageOutline = orderedOutline(index.all('usage'), bySection('usage'), 2);
      const examples = bySection('examples');
      const fallbackUsage: OutlineItem[] =
        examples.length > 0
          ? [
              heading('Examples'),
              ...examples.flatMap((snippet): OutlineItem[] => [
                heading(snippet.topics[0] ?? 'Example', 3),
                { type: 'snippet', snippet_id: snippet.snippet_id },
              ]),
            ]
          : overviewClaims.map((claim) => claimItem(claim, 'paragraph'));
      const firstUsage = index.first('usage');
      return [
        {
          page_id: 'docs/getting-started',
          section,
          template: 'docs/getting-started',
          title: `Getting started with ${name}`,
          description: `Start using ${name}.`,
          weight: 10,
          file: `${slug}/getting-started.md`,
          url_path: `/docs/${slug}/getting-started/`,
          outline: [
            ...section_(
              overviewClaims.map((claim) => claimItem(claim, 'paragraph')),
              'Overview',
            ),
            ...section_(
              install === undefined
                ? []
                : [
                    claimItem(install, 'paragraph'),
                    {
                      type: 'text',
                      text: `See [Install ${escapeMarkdownText(name)}](/docs/${slug}/installation/) for details.`,
                    },
                  ],
              'Install',
            ),
            ...section_(
              [
                ...(firstUsage === undefined ? [] : [claimItem(firstUsage, 'paragraph')]),
                ...(quickExample === undefined
                  ? []
                  : [{ type: 'snippet', snippet_id: quickExample.snippet_id } as OutlineItem]),
              ],
              'First steps',
            ),
          ],
          related: ['docs/installation', 'docs/usage', 'reference/overview', 'kb/faq'],
        },
        {
          page_id: 'docs/installation',
          section,
          template: 'docs/installation',
          title: `Install ${name}`,
          description: `How to install ${name}.`,
          weight: 20,
          file: `${slug}/installation.md`,
          url_path: `/docs/${slug}/installation/`,
          outline: [
            ...(install === undefined ? [] : [claimItem(install, 'paragraph')]),
            ...installSection,
            ...section_(
              index.all('runtime').map((claim) => claimItem(claim, 'bullet')),
              'Requirements',
            ),
          ],
          related: ['docs/getting-started', 'docs/usage', 'kb/faq'],
        },
        {
          page_id: 'docs/usage',
          section,
          template: 'docs/usage',
          title: `Using ${name}`,
          description: `How to use ${name}.`,
          weight: 30,
          file: `${slug}/usage.md`,
          url_path: `/docs/${slug}/usage/`,
          outline: usageOutline.length > 0 ? usageOutline : fallbackUsage,
          related: ['docs/getting-started', 'docs/installation', 'reference/overview'],
        },
      ];
    }
    case 'reference':
      return [
        {
          page_id: 'reference/overview',
          section,
          template: 'reference/overview',
          title: `${name} reference`,
          description: `Reference for ${name}.`,
          weight: 10,
          file: `${slug}.md`,
          url_path: `/reference/${slug}/`,
          outline: [
            ...section_(
              glance.map((claim) => claimItem(claim, 'bullet')),
              'Package',
            ),
            ...orderedOutline(index.all('api'), bySection('api'), 2),
          ],
          related: ['docs/usage', 'docs/installation', 'products/overview'],
        },
      ];
    case 'kb': {
      const quick: [string, Claim | undefined][] = [
        ['How do I install it?', index.first('install')],
        ['Which version is current?', index.first('version')],
        ['Which license applies?', index.first('license')],
        ['What does it require?', index.first('runtime')],
      ];
      const answers = quick.flatMap(([question, claim]): OutlineItem[] =>
        claim === undefined ? [] : [heading(question, 3), claimItem(claim, 'paragraph')],
      );
      return [
        {
          page_id: 'kb/faq',
          section,
          template: 'kb/faq',
          title: `${name} FAQ`,
          description: `Answers to common questions about ${name}.`,
          weight: 10,
          file: `${slug}.md`,
          url_path: `/kb/${slug}/`,
          outline: [
            ...section_(answers, 'Quick answers'),
            ...orderedOutline(index.all('faq'), bySection('faq'), 2),
          ],
          related: ['docs/getting-started', 'docs/installation', 'products/overview'],
        },
      ];
    }
    case 'blog':
      return [
        {
          page_id: 'blog/launch',
          section,
          template: 'blog/launch',
          title: `Introducing ${name}`,
          description: `Announcing ${name}.`,
          weight: 10,
          file: `introducing-${slug}.md`,
          url_path: `/blog/introducing-${slug}/`,
          outline: [
            ...section_(
              overviewClaims.map((claim) => claimItem(claim, 'paragraph')),
              `Meet ${name}`,
            ),
            ...section_(
              index.all('feature').map((claim) => claimItem(claim, 'bullet')),
              'Highlights',
            ),
            ...section_(
              [
                ...index.all('release').map((claim) => claimItem(claim, 'paragraph')),
                ...orderedOutline(index.all('change'), [], 3),
              ],
              "What's new",
            ),
            ...section_(
              [index.first('install'), index.first('version')].flatMap((claim) =>
                claim === undefined ? [] : [claimItem(claim, 'paragraph')],
              ),
              'Get it',
            ),
          ],
          related: ['products/overview', 'docs/getting-started'],
        },
      ];
  }
}
