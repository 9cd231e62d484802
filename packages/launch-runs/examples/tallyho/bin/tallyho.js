#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { formatTally, tally } from '../src/index.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const prose = args.includes('--prose');
const file = args.find((arg) => !arg.startsWith('--'));
const text = readFileSync(file ?? 0, 'utf8');
process.stdout.write(`${formatTally(tally(text, { prose }), json ? 'json' : 'text')}\n`);
