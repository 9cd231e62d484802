import type { RunConfig } from '@switchyard/contracts/launch-runs';
import type { ExpectedKey } from './site/archetypes.js';

export interface PageFacts {
  title: string;
  description: string;
  weight: number;
  urlPath: string;
}

/**
 * The value a launch page gets for a front matter key: title/description/weight from the plan, dates from
 * the source commit (so re-runs are byte-identical), well-known Hugo keys by convention, anything else the
 * archetype's literal default (or null when the archetype has a template there).
 */
export function frontMatterValue(
  key: string,
  page: PageFacts,
  context: { config: RunConfig; committedAt: string; archetypeDefault: unknown },
): unknown {
  switch (key) {
    case 'title':
      return page.title;
    case 'description':
    case 'summary':
      return page.description;
    case 'weight':
      return page.weight;
    case 'date':
    case 'publishDate':
    case 'lastmod':
      return context.committedAt;
    case 'draft':
      return false;
    case 'slug': {
      const segments = page.urlPath.split('/').filter((part) => part !== '');
      return segments.at(-1) ?? '';
    }
    case 'tags':
    case 'categories':
    case 'keywords':
      return Array.isArray(context.archetypeDefault) ? context.archetypeDefault : [];
    case 'toc':
      return true;
    case 'product':
      return context.config.product_slug;
    case 'author':
      return context.config.commit.author_name;
    case 'authors':
      return [context.config.commit.author_name];
    default:
      return context.archetypeDefault ?? null;
  }
}

/** Front matter of a launch page: the three required keys first, then the archetype's keys in its order. */
export function launchFrontMatter(
  page: PageFacts,
  expected: readonly ExpectedKey[],
  config: RunConfig,
  committedAt: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    title: page.title,
    description: page.description,
    weight: page.weight,
  };
  for (const entry of expected) {
    if (entry.key in out) continue;
    out[entry.key] = frontMatterValue(entry.key, page, {
      config,
      committedAt,
      archetypeDefault: entry.default,
    });
  }
  return out;
}
