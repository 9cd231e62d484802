import { readFileSync } from 'node:fs';
import { formatTally, tally } from 'tallyho';

const counts = tally(readFileSync('notes.txt', 'utf8'));
process.stdout.write(`${formatTally(counts, 'text')}\n`);
