import { writeJsonArtifact } from '../artifact-io.js';
import type { EvidenceMap, ProductFacts } from '../artifact-schemas.js';
import { compareCodePoints } from '../../canonical-json.js';
import { throwIfCancelled } from '../errors.js';
import { escapeMarkdownText } from '../markdown/inline.js';
import type { ResolvedPipelineOptions } from '../options.js';
import type { WorkerContext } from '../types.js';
import { readWorkerArtifact } from '../worker-artifacts.js';
import { changelogClaims, CHANGELOG_PATTERNS } from './changelog.js';
import { ClaimCollector } from './claim-collector.js';
import { detectLicense } from './license-file.js';
import { installCommandFor, manifestClaims, readManifest } from './manifest.js';
import { readmeClaims, README_PATTERNS } from './readme.js';
import { clonedSource, skippedFilesField } from './source-files.js';

const LICENSE_PATTERNS = [
  /^license$/i,
  /^license\.(md|txt)$/i,
  /^licence(\.(md|txt))?$/i,
  /^copying(\.(md|txt))?$/i,
];

/**
 * W2: atomic claims with evidence from the manifest, README, LICENSE and CHANGELOG of the cloned source.
 * Writes product_facts.json (claims in source order with their context, and the files left out for their
 * size) and evidence_map.json (claim id -> evidence, the file TruthLock resolves markers against).
 */
export async function extractFacts(ctx: WorkerContext, options: ResolvedPipelineOptions): Promise<void> {
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const files = clonedSource(ctx.runDir, inventory, options.maxFileBytes);
  const product = ctx.config.product_name;

  const readmePath = files.findRootFile(README_PATTERNS);
  const licensePath = files.findRootFile(LICENSE_PATTERNS);
  const changelogPath = files.findRootFile(CHANGELOG_PATTERNS);
  const manifest = await readManifest(files);
  const fileLines = new Map<string, string[]>();
  for (const path of [readmePath, licensePath, changelogPath, manifest?.path]) {
    if (path === undefined) continue;
    const lines = await files.lines(path);
    if (lines !== undefined) fileLines.set(path, lines);
  }
  throwIfCancelled(ctx.signal);
  const collector = new ClaimCollector((path) => fileLines.get(path));
  const packageName = manifest?.name?.value ?? null;

  // The README is read first only to learn whether it names the install command (its wording wins).
  const readmeText = readmePath === undefined ? undefined : fileLines.get(readmePath)?.join('\n');
  const readmeCollector = new ClaimCollector((path) => fileLines.get(path));
  const readme =
    readmePath !== undefined && readmeText !== undefined
      ? readmeClaims(readmePath, readmeText, product, packageName, readmeCollector)
      : { installCommand: null };

  const manifestIds =
    manifest === undefined
      ? { repositoryUrl: null, license: null }
      : manifestClaims(manifest, product, collector, { installFromReadme: readme.installCommand !== null });

  let license = manifestIds.license;
  if (licensePath !== undefined) {
    const detected = detectLicense(fileLines.get(licensePath) ?? []);
    if (detected !== undefined) {
      license ??= detected.spdx;
      collector.add({
        kind: 'license',
        text: `${escapeMarkdownText(product)} is released under the ${detected.spdx} license.`,
        path: licensePath,
        lineStart: detected.line,
        lineEnd: detected.line,
      });
    }
  }
  if (readmePath !== undefined && readmeText !== undefined)
    readmeClaims(readmePath, readmeText, product, packageName, collector);
  if (changelogPath !== undefined) {
    const text = fileLines.get(changelogPath)?.join('\n');
    if (text !== undefined) changelogClaims(changelogPath, text, collector);
  }

  const claims = collector.list();
  const facts: ProductFacts = {
    schema_version: '1.0',
    product: {
      name: product,
      slug: ctx.config.product_slug,
      package_name: packageName,
      ecosystem: manifest?.ecosystem ?? null,
      version: manifest?.version?.value ?? null,
      license,
      install_command: readme.installCommand ?? (manifest === undefined ? null : installCommandFor(manifest)),
      repository_url: manifestIds.repositoryUrl,
    },
    claims,
    ...skippedFilesField(files),
  };
  const evidence: EvidenceMap = {
    schema_version: '1.0',
    source_sha: inventory.source.sha,
    claims: Object.fromEntries(
      claims
        .map(
          (claim) =>
            [
              claim.claim_id,
              { kind: claim.kind, text: claim.text, evidence: collector.evidenceOf(claim.claim_id) },
            ] as const,
        )
        .sort(([a], [b]) => compareCodePoints(a, b)),
    ),
  };
  throwIfCancelled(ctx.signal);
  await writeJsonArtifact(ctx.artifacts, 'product_facts.json', facts);
  await writeJsonArtifact(ctx.artifacts, 'evidence_map.json', evidence);
  ctx.logger.info('W2 extracted facts', {
    claims: claims.length,
    skipped_files: files.skipped().length,
    readme: readmePath ?? null,
    manifest: manifest?.path ?? null,
  });
}
