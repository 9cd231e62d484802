import type { z } from 'zod';
import { describeIssues } from '@switchyard/contracts/errors';
import { canonicalJsonDocument } from '../canonical-json.js';
import { invalidArtifact, missingArtifact } from './errors.js';
import type { ArtifactStore, ArtifactWriteResult } from './types.js';

const decoder = new TextDecoder('utf-8', { fatal: false });

export async function readTextArtifact(artifacts: ArtifactStore, name: string): Promise<string | undefined> {
  const bytes = await artifacts.read(name);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}

/** Reads and validates a JSON artifact an earlier worker wrote; `producer` names that worker for the error. */
export async function readJsonArtifact<S extends z.ZodType>(
  artifacts: ArtifactStore,
  name: string,
  schema: S,
  producer: string,
): Promise<z.output<S>> {
  const text = await readTextArtifact(artifacts, name);
  if (text === undefined) throw missingArtifact(name, producer);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArtifact(name, 'not valid JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw invalidArtifact(name, describeIssues(result.error.issues.slice(0, 5)));
  return result.data;
}

export function writeJsonArtifact(
  artifacts: ArtifactStore,
  name: string,
  value: unknown,
): Promise<ArtifactWriteResult> {
  return artifacts.write(name, canonicalJsonDocument(value), { contentType: 'application/json' });
}

export function writeMarkdownArtifact(
  artifacts: ArtifactStore,
  name: string,
  content: string,
): Promise<ArtifactWriteResult> {
  return artifacts.write(name, content, { contentType: 'text/markdown; charset=utf-8' });
}
