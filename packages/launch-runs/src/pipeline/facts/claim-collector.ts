import type { Claim, ClaimKind, Evidence } from '../artifact-schemas.js';
import { claimId, linesSha256, normalizeClaimText } from '../hashing.js';

export interface ClaimInput {
  kind: ClaimKind;
  text: string;
  path: string;
  lineStart: number;
  lineEnd: number;
  topics?: readonly string[];
  style?: 'sentence' | 'bullet';
  /** The snippet id of the code block the claim leads into. */
  introduces?: string;
}

/**
 * Collects atomic claims with their evidence. The same text and kind from two places is one claim with
 * two evidence entries; evidence hashes are computed from the real lines of the source file.
 */
export class ClaimCollector {
  private readonly claims = new Map<string, Claim>();
  private readonly evidence = new Map<string, Evidence[]>();

  constructor(private readonly fileLines: (path: string) => readonly string[] | undefined) {}

  add(input: ClaimInput): string | undefined {
    const text = normalizeClaimText(input.text);
    const lines = this.fileLines(input.path);
    if (text === '' || lines === undefined) return undefined;
    const lineEnd = Math.min(Math.max(input.lineEnd, input.lineStart), lines.length);
    if (input.lineStart < 1 || input.lineStart > lineEnd) return undefined;
    const id = claimId(text, input.kind);
    const item: Evidence = {
      path: input.path,
      line_start: input.lineStart,
      line_end: lineEnd,
      sha256: linesSha256(lines, input.lineStart, lineEnd),
    };
    const existing = this.evidence.get(id);
    if (input.introduces !== undefined) this.recordLeadIn(id, input.introduces);
    if (existing === undefined) {
      this.claims.set(id, {
        claim_id: id,
        kind: input.kind,
        text,
        topics: [...(input.topics ?? [])],
        style: input.style ?? 'sentence',
        source: { path: input.path, line: input.lineStart },
        ...(input.introduces === undefined ? {} : { introduces: [input.introduces] }),
      });
      this.evidence.set(id, [item]);
    } else if (
      !existing.some(
        (e) => e.path === item.path && e.line_start === item.line_start && e.line_end === item.line_end,
      )
    ) {
      existing.push(item);
    }
    return id;
  }

  /** The same sentence leading into a second block (`For example:`) introduces both. */
  private recordLeadIn(id: string, snippetId: string): void {
    const claim = this.claims.get(id);
    if (claim === undefined) return;
    if (claim.introduces === undefined) claim.introduces = [snippetId];
    else if (!claim.introduces.includes(snippetId)) claim.introduces.push(snippetId);
  }

  has(id: string): boolean {
    return this.claims.has(id);
  }

  /** Claims in the order they were first found (manifest, LICENSE, README, CHANGELOG). */
  list(): Claim[] {
    return [...this.claims.values()];
  }

  evidenceOf(id: string): Evidence[] {
    return [...(this.evidence.get(id) ?? [])].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : a.line_start - b.line_start,
    );
  }
}
