// A realistic coaching corpus, generated fast: one transaction, prepared statements, summaries assembled
// from word lists with a seeded PRNG (the same corpus every run).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { localPrincipal } from '@switchyard/server-kit/runtime';
import { SESSION_FTS_SHARDS, sessionFtsTable } from '../src/db/fts.js';

const TOPICS = [
  'marathon training',
  'sleep routine',
  'morning run',
  'knee injury recovery',
  'job interview',
  'public speaking',
  'monthly budget',
  'meditation habit',
  'sugar intake',
  'reading goal',
  'guitar practice',
  'spanish lessons',
  'procrastination',
  'time blocking',
  'family dinners',
  'deep work',
  'weekly review',
  'gym schedule',
  'anxiety before meetings',
  'saving for a house',
  'learning to code',
  'writing a novel',
  'hydration',
  'screen time',
  'cold showers',
  'journaling',
  'stretching',
  'quitting smoking',
  'networking events',
  'salary negotiation',
  'cycling to work',
  'meal preparation',
  'debt repayment',
  'language exchange',
  'volunteering',
  'career change',
  'posture',
  'evening walks',
  'caffeine',
  'piano exercises',
  'gardening',
  'strength training',
  'thesis writing',
  'parenting routines',
  'decluttering',
  'tax paperwork',
  'swimming',
  'mindful eating',
  'podcast launch',
  'side project',
];
const ASPECTS = [
  'the first small step',
  'a realistic weekly target',
  'tracking progress',
  'the inner obstacle',
  'the desired outcome',
  'an if-then plan',
  'accountability with a friend',
  'rewards',
  'setbacks',
  'the evening routine',
  'energy levels',
  'the calendar',
  'motivation on weekends',
  'the best outcome',
  'what got in the way',
  'a backup plan',
  'habit stacking',
  'self-compassion',
  'the wish',
  'consistency',
];
const PEOPLE = ['The client', 'She', 'He', 'They', 'We both', 'The coachee'];
const FEELINGS = [
  'confident',
  'frustrated',
  'hopeful',
  'tired',
  'anxious',
  'proud',
  'unsure',
  'motivated',
  'overwhelmed',
  'relieved',
  'curious',
  'stuck',
  'energised',
  'calm',
  'impatient',
];
const OBSTACLES = [
  'late work emails',
  'fatigue after work',
  'a busy travel schedule',
  'a sore knee',
  'perfectionism',
  'family commitments',
  'rainy weather',
  'social media',
  'fear of failure',
  'an irregular shift pattern',
  'low energy in the afternoon',
  'a noisy flat',
  'unexpected expenses',
  'skipping breakfast',
  'comparing themselves to others',
  'a tight deadline',
  'lack of sleep',
  'a cold',
  'moving house',
  'exams',
];
const ACTIONS = [
  'schedule three sessions',
  'try a ten minute version',
  'prepare everything the night before',
  'ask a friend to join',
  'track it in a journal',
  'set a phone reminder',
  'reduce the target by half',
  'celebrate each completed week',
  'review the plan on Sunday',
  'start right after breakfast',
  'book a slot in the calendar',
  'write the if-then plan on a card',
  'share progress with the group',
  'replace it with a short walk',
  'talk to the manager',
];
const TIMEFRAMES = [
  'this week',
  'before the next session',
  'over the weekend',
  'for the next month',
  'every morning',
  'twice a week',
  'until the holiday',
  'starting Monday',
];

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

export function summaryGenerator(random: (n: number) => number): () => string {
  const pick = <T>(list: readonly T[]): T => list[random(list.length)]!;
  return () => {
    const first = `Discussed ${pick(TOPICS)} with a focus on ${pick(ASPECTS)}.`;
    const second = `${pick(PEOPLE)} felt ${pick(FEELINGS)} about ${pick(OBSTACLES)}`;
    const third = `; agreed to ${pick(ACTIONS)} ${pick(TIMEFRAMES)}.`;
    return random(4) === 0
      ? `${first} ${second}${third} Follow-up on ${pick(TOPICS)} next time.`
      : `${first} ${second}${third}`;
  };
}

/** Words and phrases the benchmark searches for: topical, common, multi-word and a question. */
export const BENCH_QUERIES = [
  'marathon',
  'sleep routine',
  'fatigue',
  'knee injury',
  'budget',
  'plan',
  'the week',
  'confident interview',
  'what did we agree about the marathon',
  'if-then plan for the weekend',
];

export interface Corpus {
  journeyIds: string[];
  userIds: string[];
}

/**
 * Fills an empty, migrated database: `journeys` journeys (each with a user), `sessions` sessions spread
 * uniformly at random over them, at random times over two years. Ids of generated rows are sequential
 * within a random prefix (valid v4 UUIDs) so that the unique indexes grow at their end.
 *
 * Bulk load: once a transaction has written to an FTS5 table, every later write statement in it makes FTS5
 * flush its pending terms (a statement savepoint), which costs about 6x per row. So, as FTS5's
 * documentation suggests for bulk loads, the session triggers are set aside, all sessions are written,
 * then each is indexed in its journey's shard (exactly the row the trigger would write), and the triggers
 * are restored from their own stored SQL. `verifyIndex` checks the result.
 */
export function generateCorpus(
  sqlite: Database.Database,
  journeys: number,
  sessions: number,
  seed = 42,
): Corpus {
  const random = seededRandom(seed);
  const summary = summaryGenerator(random);
  const prefix = randomUUID().slice(0, 23);
  let counter = 0;
  const sequentialId = () => `${prefix}-${(counter++).toString(16).padStart(12, '0')}`;
  const journeyIds: string[] = [];
  const userIds: string[] = [];
  const start = Date.UTC(2024, 0, 1);
  const span = 2 * 365 * 24 * 3600 * 1000;
  const triggers = sqlite
    .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'sessions'`)
    .all() as { name: string; sql: string }[];
  const load = sqlite.transaction(() => {
    for (const trigger of triggers) sqlite.exec(`DROP TRIGGER ${trigger.name}`);
    const insertJourney = sqlite.prepare(
      'INSERT INTO journeys (id, owner, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insertSession = sqlite.prepare(
      'INSERT INTO sessions (id, journey_id, created_at, summary, diagnosis, confidence_score) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (let j = 0; j < journeys; j++) {
      const id = randomUUID();
      const user = randomUUID();
      journeyIds.push(id);
      userIds.push(user);
      // The benchmark's client is a local (stdio-like) caller: the corpus is its journeys.
      insertJourney.run(id, localPrincipal(), user, start, start + span);
    }
    // Sessions land on journeys uniformly at random; each journey's are written together, oldest first.
    const perJourney = new Uint32Array(journeys);
    for (let s = 0; s < sessions; s++) perJourney[random(journeys)]! += 1;
    for (let j = 0; j < journeys; j++) {
      const times = Array.from({ length: perJourney[j]! }, () => start + random(span)).sort((a, b) => a - b);
      for (const createdAt of times) {
        const diagnosed = random(5) === 0;
        insertSession.run(
          sequentialId(),
          journeyIds[j]!,
          createdAt,
          summary(),
          diagnosed ? '{"stage":"action"}' : null,
          diagnosed ? random(101) : null,
        );
      }
    }
    const indexInShard = Array.from({ length: SESSION_FTS_SHARDS }, (_, shard) => {
      const table = sessionFtsTable(shard);
      return sqlite.prepare(`INSERT INTO ${table} (rowid, jkey, summary) VALUES (?, ?, ?)`);
    });
    const batch = sqlite
      .prepare('SELECT seq, jkey, summary, fts_shard FROM sessions WHERE seq > ? ORDER BY seq LIMIT 10000')
      .raw();
    for (let after = 0; ;) {
      const rows = batch.all(after) as [number, string, string, number][];
      if (rows.length === 0) break;
      for (const [seq, jkey, text, shard] of rows) indexInShard[shard]!.run(seq, jkey, text);
      after = rows[rows.length - 1]![0];
    }
    for (const trigger of triggers) sqlite.exec(trigger.sql);
  });
  load();
  return { journeyIds, userIds };
}

/** FTS5's own check that every shard indexes exactly its content (throws when it does not). */
export function verifyIndex(sqlite: Database.Database): void {
  for (let shard = 0; shard < SESSION_FTS_SHARDS; shard++) {
    const table = sessionFtsTable(shard);
    sqlite.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
  }
}
