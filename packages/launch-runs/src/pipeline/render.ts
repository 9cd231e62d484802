import { stringify } from 'yaml';
import type { Claim, OutlineItem, PlannedPage, Snippet } from './artifact-schemas.js';
import { invalidArtifact } from './errors.js';
import { escapeMarkdownText } from './markdown/inline.js';
import { claimMarker, snippetMarker } from './markers.js';

export function claimLine(claim: Pick<Claim, 'claim_id' | 'text'>): string {
  return `${claim.text} ${claimMarker(claim.claim_id)}`;
}

/** A fenced block whose fence is longer than any backtick run in the code. */
export function fencedBlock(language: string, content: string): string {
  const longest = Math.max(0, ...[...content.matchAll(/^\s*(`{3,})/gm)].map((match) => match[1]!.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${content}\n${fence}`;
}

export function snippetBlock(snippet: Pick<Snippet, 'snippet_id' | 'language' | 'content'>): string {
  return `${snippetMarker(snippet.snippet_id)}\n\n${fencedBlock(snippet.language, snippet.content)}`;
}

export function renderFrontMatter(data: Record<string, unknown>): string {
  return `---\n${stringify(data, { lineWidth: 0 })}---\n`;
}

export interface RenderContext {
  claims: ReadonlyMap<string, Claim>;
  snippets: ReadonlyMap<string, Snippet>;
  pages: ReadonlyMap<string, Pick<PlannedPage, 'title' | 'url_path'>>;
}

/**
 * The Markdown body of a planned page: blocks separated by one blank line; consecutive sentence claims from
 * the same source paragraph share a paragraph (one claim per line), consecutive bullets share a list.
 */
export function renderBody(
  outline: readonly OutlineItem[],
  context: RenderContext,
  pageName: string,
): string {
  const blocks: string[] = [];
  let paragraph: { key: string; lines: string[] } | undefined;
  let list: string[] | undefined;
  const flush = (): void => {
    if (paragraph !== undefined) blocks.push(paragraph.lines.join('\n'));
    if (list !== undefined) blocks.push(list.join('\n'));
    paragraph = undefined;
    list = undefined;
  };
  for (const item of outline) {
    switch (item.type) {
      case 'heading':
        flush();
        blocks.push(`${'#'.repeat(item.level)} ${item.text}`);
        break;
      case 'claim': {
        const claim = context.claims.get(item.claim_id);
        if (claim === undefined)
          throw invalidArtifact('page_plan.json', `${pageName} cites unknown claim ${item.claim_id}`);
        if (item.style === 'bullet') {
          if (paragraph !== undefined) flush();
          list ??= [];
          list.push(`- ${claimLine(claim)}`);
        } else {
          const key = `${claim.source.path}:${claim.source.line}`;
          if (list !== undefined || (paragraph !== undefined && paragraph.key !== key)) flush();
          paragraph ??= { key, lines: [] };
          paragraph.lines.push(claimLine(claim));
        }
        break;
      }
      case 'snippet': {
        flush();
        const snippet = context.snippets.get(item.snippet_id);
        if (snippet === undefined)
          throw invalidArtifact('page_plan.json', `${pageName} cites unknown snippet ${item.snippet_id}`);
        blocks.push(snippetBlock(snippet));
        break;
      }
      case 'text':
        flush();
        blocks.push(item.text);
        break;
      case 'links': {
        flush();
        const entries = item.page_ids.flatMap((id) => {
          const page = context.pages.get(id);
          return page === undefined ? [] : [`- [${escapeMarkdownText(page.title)}](${page.url_path})`];
        });
        if (entries.length > 0) blocks.push(`## ${item.heading}`, entries.join('\n'));
        break;
      }
    }
  }
  flush();
  return blocks.join('\n\n');
}

export function renderPage(frontMatter: Record<string, unknown>, body: string): string {
  return body === '' ? renderFrontMatter(frontMatter) : `${renderFrontMatter(frontMatter)}\n${body}\n`;
}
