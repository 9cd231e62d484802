// Measurements a hardening suite keeps for docs/hardening.md (`pnpm hardening:report`). A suite records its
// rows with `recordFindings`; they are written only when HARDENING_FINDINGS_DIR names a folder (the report
// script sets it), so that an ordinary test run leaves no files behind. Each table is one NDJSON file.
import fs from 'node:fs';
import path from 'node:path';

/** The tables docs/hardening.md has, each with its title, what it shows and its columns in order. */
export const FINDING_TABLES = {
  amplification: {
    title: 'Amplification: the largest answer each tool can be made to give',
    about:
      'For each tool, and `resources/read`, the worst case a caller can build (the largest stored data ' +
      'and the arguments that ask for the most of it): the request bytes sent, the answer bytes received ' +
      '(the whole HTTP body), and the server process RSS at its peak while answering.',
    columns: ['domain', 'call', 'worst case', 'bytes in', 'bytes out', 'peak RSS MiB'],
  },
  'database-faults': {
    title: 'Database faults on PostgreSQL',
    about:
      'A TCP proxy between the server and PostgreSQL cuts connections, or PostgreSQL restarts, while ' +
      'calls are in flight: whether the process stays alive, what the calls in flight answered, and how ' +
      'long until calls succeed again (from the cut, or from PostgreSQL accepting connections again, to ' +
      "the domain's next successful call).",
    columns: ['domain', 'fault', 'process alive', 'calls answered', 'codes', 'recovery s'],
  },
} as const;

export type FindingTable = keyof typeof FINDING_TABLES;
export type FindingRow<T extends FindingTable> = Record<
  (typeof FINDING_TABLES)[T]['columns'][number],
  string | number | boolean
>;

/** The folder findings go to, or undefined when this run keeps none. */
export function findingsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.HARDENING_FINDINGS_DIR?.trim();
  return dir === undefined || dir === '' ? undefined : dir;
}

/** Appends `rows` to the table's file when findings are kept; a no-op otherwise. */
export function recordFindings<T extends FindingTable>(table: T, rows: readonly FindingRow<T>[]): void {
  const dir = findingsDir();
  if (dir === undefined) return;
  fs.mkdirSync(dir, { recursive: true });
  const lines = rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  fs.appendFileSync(path.join(dir, `${table}.ndjson`), lines);
}

/** Every row recorded for `table` in `dir`, in the order they were written. */
export function readFindings<T extends FindingTable>(dir: string, table: T): FindingRow<T>[] {
  const file = path.join(dir, `${table}.ndjson`);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FindingRow<T>);
}
