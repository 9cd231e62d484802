import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Claim text as hashed into its id: Unicode NFC, runs of whitespace collapsed to one space, trimmed. */
export function normalizeClaimText(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** `c_` + first 12 hex of sha256(normalized claim text + "|" + kind) (design, binding). */
export function claimId(text: string, kind: string): string {
  return `c_${sha256Hex(`${normalizeClaimText(text)}|${kind}`).slice(0, 12)}`;
}

/** `s_` + first 12 hex of sha256(snippet content): the same code gets the same id wherever it appears. */
export function snippetId(content: string): string {
  return `s_${sha256Hex(content).slice(0, 12)}`;
}

/** `p_` + first 12 hex of sha256(op, path, sha256 of the new content): a patch id is a content hash. */
export function patchId(op: string, path: string, content: string): string {
  return `p_${sha256Hex(`${op}\n${path}\n${sha256Hex(content)}`).slice(0, 12)}`;
}

/** `iss_` + first 16 hex of sha256(gate, code, path, line, message) (design: stable issue id). */
export function issueId(gate: string, code: string, path: string, line: number, message: string): string {
  return `iss_${sha256Hex([gate, code, path, String(line), message].join('\n')).slice(0, 16)}`;
}

/** sha256 of lines `start..end` (1-based, inclusive) of `text` split on "\n", re-joined with "\n". */
export function linesSha256(lines: readonly string[], start: number, end: number): string {
  return sha256Hex(lines.slice(start - 1, end).join('\n'));
}
