// A realistic coaching corpus: summaries assembled from word lists with a seeded PRNG, ids and times from it
// too, so that every run and every dialect gets the same corpus (sqlite-corpus.ts and postgres-corpus.ts
// load it).

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

export interface CorpusSession {
  id: string;
  journeyId: string;
  createdAt: number;
  summary: string;
  diagnosis: string | null;
  confidenceScore: number | null;
}

/** Every corpus journey is created at START and last updated at START + SPAN (milliseconds). */
export const CORPUS_TIMES = { start: Date.UTC(2024, 0, 1), span: 2 * 365 * 24 * 3600 * 1000 };

export interface GeneratedCorpus extends Corpus {
  sessions: number;
  /** The sessions, each journey's together and oldest first; every call yields the same ones. */
  eachSession(): Generator<CorpusSession>;
}

const HEX = '0123456789abcdef';

/** A version 4 UUID (lowercase) from `random`. */
function seededUuid(random: (n: number) => number): string {
  const hex = Array.from({ length: 32 }, () => HEX[random(16)]).join('');
  const variant = HEX[8 + random(4)]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/**
 * `journeys` journeys (each with a user) and `sessions` sessions spread uniformly at random over them, at
 * random times over two years. Session ids are sequential within a random prefix (valid v4 UUIDs) so that
 * the unique indexes grow at their end.
 */
export function generateCorpus(journeys: number, sessions: number, seed = 42): GeneratedCorpus {
  const ids = seededRandom(seed + 1);
  const journeyIds = Array.from({ length: journeys }, () => seededUuid(ids));
  const userIds = Array.from({ length: journeys }, () => seededUuid(ids));
  const prefix = seededUuid(ids).slice(0, 23);
  function* eachSession(): Generator<CorpusSession> {
    const random = seededRandom(seed);
    const summary = summaryGenerator(random);
    const { start, span } = CORPUS_TIMES;
    const perJourney = new Uint32Array(journeys);
    for (let s = 0; s < sessions; s++) perJourney[random(journeys)]! += 1;
    let counter = 0;
    for (let j = 0; j < journeys; j++) {
      const times = Array.from({ length: perJourney[j]! }, () => start + random(span)).sort((a, b) => a - b);
      for (const createdAt of times) {
        const diagnosed = random(5) === 0;
        yield {
          id: `${prefix}-${(counter++).toString(16).padStart(12, '0')}`,
          journeyId: journeyIds[j]!,
          createdAt,
          summary: summary(),
          diagnosis: diagnosed ? '{"stage":"action"}' : null,
          confidenceScore: diagnosed ? random(101) : null,
        };
      }
    }
  }
  return { journeyIds, userIds, sessions, eachSession };
}
