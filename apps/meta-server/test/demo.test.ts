import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR, requireBuiltBin } from './helpers.js';

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuiltBin();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('demo', 'run.ts')], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The journeys the demo printed: where the rider asked to go, and each option's last leg. */
function journeysShown(stdout: string): { to: string; lastLegs: string[] } {
  const shown = /▶ planJourney: from "[^"]*"(?: \([^)]*\))? to "([^"]+)"\n {2}OK: .*\n([\s\S]*?)\n\n/.exec(
    stdout,
  );
  if (shown === null) throw new Error(`the demo printed no journeys:\n${stdout}`);
  const [, to = '', options = ''] = shown;
  const legsOfEach = options.split(/\n {2}\d+\. .*/).slice(1);
  return { to, lastLegs: legsOfEach.map((legs) => legs.trim().split('\n').at(-1)?.trim() ?? '') };
}

describe('pnpm demo', () => {
  it('runs every story end to end, offline, and tells it in plain lines', async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(code, stderr).toBe(0);
    // London: journeys whose every option ends where the rider asked to go (the stand-in's recording, not a
    // recording of another trip under the asked names), then the suggestions for two ambiguous names.
    const london = journeysShown(stdout);
    expect(london.lastLegs).toHaveLength(3);
    for (const leg of london.lastLegs) expect(leg).toContain(london.to);
    expect(stdout).toMatch(/DISAMBIGUATION_REQUIRED[\s\S]*"Victoria" could be:[\s\S]*"Highgate" could be:/);
    // ...the lines on the way (the mock's Central line has minor delays)...
    expect(stdout).toMatch(/▶ get_line_status[\s\S]*- Central: Minor Delays: /);
    // ...and the next trains at a saved station, on one line.
    expect(stdout).toMatch(/▶ get_london_arrivals[\s\S]*OK: [\s\S]*- (due|\d+ min): Victoria to /);
    // Helsinki: departures by saved label and a trip from a saved place.
    expect(stdout).toMatch(/▶ get_departures[\s\S]*Rautatientori: with realtime data/);
    expect(stdout).toMatch(/▶ plan_trip[\s\S]*from Home; realtime: \w+\n\s+1\. \d\d:\d\d → \d\d:\d\d/);
    // Journey: the same journey comes back, and the search finds the Helsinki sessions only.
    expect(stdout).toContain('same journey: yes, 3 sessions so far');
    expect(stdout).toContain('2 matching sessions, most relevant first:');
    // Launch: the run rests in VALIDATING, one fix, then the PR.
    expect(stdout).toContain('→ VALIDATING');
    expect(stdout).toContain('report ok: nothing blocks the pull request');
    expect(stdout).toMatch(/PR\s+file:\/\/\S+site\.git#launch\/r_\S+\/tallyho/);
    expect(stdout).toMatch(/- r_\S+ DONE/);
    // Drafting: the scripted writer's made-up version is refused with its rule and what would satisfy it, the
    // revision is accepted, and once every page is in the run leaves DRAFTING to link and validate.
    expect(stdout).toMatch(
      /planted: "The current version is 2\.0\.0\." citing c_[0-9a-f]+, which says "[^"]*1\.4\.0/,
    );
    expect(stdout).toMatch(
      /products\/overview: refused, nothing stored:\n\s+- line \d+ \[UNSUPPORTED_VERSION\] "The current version is 2\.0\.0\."\n\s+The version 2\.0\.0 is not in the cited evidence[^\n]*: state the version they give/,
    );
    expect(stdout).toMatch(
      /▶ launch_submit_draft: products\/overview again, .*\n\s+products\/overview: accepted; 3 page\(s\) left/,
    );
    expect(stdout).toContain('docs/usage: accepted; no page left');
    expect(stdout).toMatch(/▶ launch_get_status: the run links the pages .*\n\s+→ VALIDATING/);
    expect(stdout).toMatch(
      /products\/overview: written by the model, through launch_submit_draft; (\d+) of \1 sentences supported/,
    );
    // Readable output, not JSON dumps.
    expect(stdout).not.toMatch(/^\s*[{[]\s*$/m);
  }, 240_000);
});
