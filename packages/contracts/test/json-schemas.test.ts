import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateJsonSchemas } from '../scripts/json-schemas.js';

const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
const regenerate = 'run `pnpm --filter @switchyard/contracts schemas:generate` and commit the result';

describe('committed JSON Schemas', () => {
  const expected = generateJsonSchemas();

  it('cover every tool input and output, run_config and the error payloads', () => {
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining([
        'planJourney.input.schema.json',
        'get_departures.output.schema.json',
        'plan_trip.input.schema.json',
        'get_or_create_journey.input.schema.json',
        'launch_start_run.input.schema.json',
        'launch_list_runs.output.schema.json',
        'run_config.schema.json',
        'validation_report.schema.json',
      ]),
    );
  });

  it('are up to date with the zod schemas', () => {
    const committed = fs.existsSync(schemasDir) ? fs.readdirSync(schemasDir).sort() : [];
    expect(committed, regenerate).toEqual(Object.keys(expected));
    for (const [name, content] of Object.entries(expected)) {
      expect(fs.readFileSync(path.join(schemasDir, name), 'utf8'), `${name} is stale: ${regenerate}`).toBe(
        content,
      );
    }
  });
});
