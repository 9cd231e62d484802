/**
 * What TruthLock calls a factual line: a sentence or bullet stating a version, a number, a license, a
 * command, an API name or a capability. Markers, link destinations, URLs and the product's own name are
 * removed first, so navigation text ("See [Install X](/docs/x/) for details.") is not factual.
 */

export const CLAIM_MARKER = /<!--\s*claim_id:\s*([^\s>]*)\s*-->/g;
export const SNIPPET_MARKER = /^\s*<!--\s*snippet_id:\s*([^\s>]*)\s*-->\s*$/;

export type FactualReason = 'version' | 'number' | 'license' | 'command' | 'api name' | 'capability';

const VERSION = /\bv?\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?\b/;
const NUMBER = /\d/;
const LICENSE = /\b(MIT|Apache|BSD|GPL|LGPL|AGPL|MPL|ISC|Unlicense|licen[cs]e[ds]?)\b/i;
const COMMAND = /`[^`]+`|\b(npm|npx|pnpm|yarn|pip3?|cargo|brew|docker|go (get|install|run))\s+[\w@./-]/;
const API_NAME = /\b[A-Za-z_$][\w$.]*\(/;
const CAPABILITY =
  /\b(supports?|supported|provides?|provided|enables?|enabled|allows?|allowed|lets you|includes?|included|requires?|required|handles?|offers?|generates?|parses?|validates?|converts?|exports?|integrates?|runs on|works with|ships|compatible|guarantees?|prevents?|detects?|automatically|can|will)\b/i;

/** Claim ids of the markers on a line, in order. */
export function markerIds(line: string): string[] {
  return [...line.matchAll(CLAIM_MARKER)].map((match) => match[1] ?? '');
}

/** The statement a line makes, with markers, comments, link targets and URLs removed. */
export function statementOf(line: string, productNames: readonly string[]): string {
  let text = line
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<https?:\/\/[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ');
  for (const name of productNames) {
    if (name.trim() === '') continue;
    text = text.split(name).join(' ');
  }
  return text
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/^\s*>\s?/, '')
    .trim();
}

/** Why a statement is factual, or undefined when it is not. */
export function factualReason(statement: string): FactualReason | undefined {
  if (!/\p{L}/u.test(statement)) return undefined;
  if (VERSION.test(statement)) return 'version';
  if (LICENSE.test(statement)) return 'license';
  if (COMMAND.test(statement)) return 'command';
  if (API_NAME.test(statement)) return 'api name';
  if (NUMBER.test(statement)) return 'number';
  if (CAPABILITY.test(statement)) return 'capability';
  return undefined;
}

/** Version-like and numeric tokens of a statement (what a cited claim must also contain). */
export function numericTokens(statement: string): string[] {
  const withoutCode = statement.replace(/(`+)[\s\S]*?\1/g, ' ');
  return [...withoutCode.matchAll(/\bv?\d+(?:[.,]\d+)*(?:-[0-9A-Za-z.]+)?\b/g)].map((match) =>
    match[0].replace(/^v/, ''),
  );
}
