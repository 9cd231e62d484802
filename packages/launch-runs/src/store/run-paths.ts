import fs from 'node:fs';
import path from 'node:path';
import { RunIdSchema } from '@switchyard/contracts/launch-runs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { assertArtifactName } from './artifact-names.js';

/** Where a run's files live: <dataDir>/launch-runs/runs/<run_id>/{artifacts,workspace}. */
export class RunPaths {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'launch-runs', 'runs');
  }

  runDir(runId: string): string {
    if (!RunIdSchema.safeParse(runId).success) {
      throw new SwitchyardError('validation', 'run_id must match ^[A-Za-z0-9_-]{8,64}$', {
        code: 'INVALID_INPUT',
      });
    }
    return path.join(this.root, runId);
  }

  artifactsDir(runId: string): string {
    return path.join(this.runDir(runId), 'artifacts');
  }

  /** The run's working copies (source clone, site worktree, site build): removed when the run ends. */
  workspaceDir(runId: string): string {
    return path.join(this.runDir(runId), 'workspace');
  }

  /** The site worktree W1 creates and W6/W8 patch (see the pipeline seam). */
  siteWorktree(runId: string): string {
    return path.join(this.workspaceDir(runId), 'site');
  }

  /** Whether this machine has the run's working copies (W1's source clone and site worktree). */
  hasWorkspace(runId: string): boolean {
    const workspace = this.workspaceDir(runId);
    return fs.existsSync(path.join(workspace, 'site')) && fs.existsSync(path.join(workspace, 'source'));
  }

  /** The file of a validated artifact name, checked to stay inside the run's artifacts folder. */
  artifactFile(runId: string, name: string): string {
    assertArtifactName(name);
    const base = this.artifactsDir(runId);
    const file = path.resolve(base, ...name.split('/'));
    if (!file.startsWith(base + path.sep)) {
      throw new SwitchyardError('validation', 'Invalid artifact name', { code: 'INVALID_INPUT' });
    }
    return file;
  }
}
