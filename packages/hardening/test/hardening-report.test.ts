import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFindings, recordFindings } from '../src/report/findings.js';
import { renderHardeningReport } from '../src/report/hardening-markdown.js';
import { machineInfo } from '../src/report/machine.js';

const dirs: string[] = [];
afterEach(() => {
  delete process.env.HARDENING_FINDINGS_DIR;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the hardening report', () => {
  it('keeps findings only when HARDENING_FINDINGS_DIR names a folder, and reads them back in order', () => {
    const row = {
      domain: 'journey-continuity',
      call: 'query_journey_history',
      'worst case': '100 sessions of 64 KiB',
      'bytes in': 210,
      'bytes out': 1_000_000,
      'peak RSS MiB': 120.5,
    };
    const before = fs.readdirSync(os.tmpdir()).length;
    recordFindings('amplification', [row]);
    expect(fs.readdirSync(os.tmpdir())).toHaveLength(before);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'findings-test-'));
    dirs.push(dir);
    process.env.HARDENING_FINDINGS_DIR = dir;
    recordFindings('amplification', [row, { ...row, call: 'resources/read' }]);
    expect(readFindings(dir, 'amplification').map((r) => r.call)).toEqual([
      'query_journey_history',
      'resources/read',
    ]);
    expect(readFindings(dir, 'database-faults')).toEqual([]);
  });

  it('renders each table with its columns, escapes cells, and says when a table has no rows', () => {
    const report = renderHardeningReport({
      generatedAt: new Date('2026-11-29T00:00:00Z'),
      machine: machineInfo(),
      suites: ['packages/hardening/test/amplification.test.ts'],
      tables: {
        amplification: [
          {
            domain: 'transit',
            call: 'get_line_status',
            'worst case': 'every mode | all lines',
            'bytes in': 120,
            'bytes out': 900_000,
            'peak RSS MiB': 140,
          },
        ],
        'database-faults': [],
      },
    });
    expect(report).toContain('| domain | call | worst case | bytes in | bytes out | peak RSS MiB |');
    expect(report).toContain('| transit | get_line_status | every mode \\| all lines | 120 | 900000 | 140 |');
    expect(report).toMatch(/## Database faults on PostgreSQL[\s\S]*No rows were recorded in this run\./);
  });
});
