import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues } from '../src/errors/index.js';
import {
  AddDocumentToJourneyInputSchema,
  AddDocumentToJourneyOutputSchema,
  compareInstants,
  DeleteJourneyInputSchema,
  DOCUMENT_TYPES,
  GetOrCreateJourneyInputSchema,
  GetOrCreateJourneyOutputSchema,
  JOURNEY_ERROR_TABLE,
  JOURNEY_TOOL_SCHEMAS,
  journeyErrorPayload,
  JourneyErrorPayloadSchema,
  parseInstant,
  QueryJourneyHistoryInputSchema,
  QueryJourneyHistoryOutputSchema,
  RecordSessionInputSchema,
  RecordSessionOutputSchema,
} from '../src/journey/index.js';
import { SwitchyardError } from '../src/errors/index.js';

// Seed 004's schemas, verbatim. A user's clone has no /work/shared; when it is there, the test below checks
// that these copies still equal the seed.
const SEED_SCHEMAS = {
  get_or_create_journey: {
    input: {
      type: 'object',
      properties: {
        user_id: {
          type: 'string',
          format: 'uuid',
          description: 'User identifier. NULL/omitted for anonymous journey.',
        },
      },
      required: [],
    },
    output: {
      type: 'object',
      properties: {
        journey_id: { type: 'string', format: 'uuid' },
        user_id: { type: ['string', 'null'], format: 'uuid' },
        created_at: { type: 'string', format: 'date-time' },
        session_count: { type: 'integer' },
        is_new: { type: 'boolean', description: 'True if journey was just created' },
      },
      required: ['journey_id', 'created_at', 'session_count', 'is_new'],
    },
  },
  query_journey_history: {
    input: {
      type: 'object',
      properties: {
        journey_id: { type: 'string', format: 'uuid', description: 'Journey to search within' },
        query: { type: 'string', description: 'Keyword search on session summaries' },
        from_date: { type: 'string', format: 'date-time', description: 'Start of time range filter' },
        to_date: { type: 'string', format: 'date-time', description: 'End of time range filter' },
        limit: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
        include_documents: {
          type: 'boolean',
          default: false,
          description: 'Include linked documents in results',
        },
      },
      required: ['journey_id'],
    },
    output: {
      type: 'object',
      properties: {
        journey_id: { type: 'string', format: 'uuid' },
        sessions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              session_id: { type: 'string', format: 'uuid' },
              created_at: { type: 'string', format: 'date-time' },
              summary: { type: 'string' },
              has_diagnosis: { type: 'boolean' },
              relevance_score: { type: 'number' },
            },
          },
        },
        documents: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              document_id: { type: 'string', format: 'uuid' },
              document_type: { type: 'string' },
              title: { type: 'string' },
              created_at: { type: 'string', format: 'date-time' },
            },
          },
        },
        total_results: { type: 'integer' },
      },
      required: ['journey_id', 'sessions', 'total_results'],
    },
  },
  add_document_to_journey: {
    input: {
      type: 'object',
      properties: {
        journey_id: { type: 'string', format: 'uuid', description: 'Journey to link document to' },
        document_type: {
          type: 'string',
          enum: ['woop_plan', 'file_upload', 'artifact', 'note'],
          description: 'Type of document',
        },
        title: { type: 'string', description: 'Document title' },
        content: { type: 'string', description: 'Document content or file path' },
        metadata: { type: 'object', description: 'Additional metadata' },
      },
      required: ['journey_id', 'document_type'],
    },
    output: {
      type: 'object',
      properties: {
        document_id: { type: 'string', format: 'uuid' },
        journey_id: { type: 'string', format: 'uuid' },
        document_type: { type: 'string' },
        created_at: { type: 'string', format: 'date-time' },
      },
      required: ['document_id', 'journey_id', 'document_type', 'created_at'],
    },
  },
} as const;

type Json = Record<string, unknown>;

/** The facts of a JSON Schema property that the seed pins: types, format, enum, default and range. */
function facts(schema: Json): Json {
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as Json[]) : [schema];
  const types = variants.flatMap((v) => (Array.isArray(v.type) ? v.type : [v.type])).filter(Boolean);
  const first = variants.find((v) => v.type !== 'null') ?? schema;
  const out: Json = { type: [...new Set(types)].sort() };
  for (const key of ['format', 'enum', 'minimum', 'maximum']) if (key in first) out[key] = first[key];
  // zod's .int() adds the safe-integer bounds; they are not a range the contract sets.
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if ('default' in schema) out.default = schema.default;
  return out;
}

/** Checks `ours` against `seed`: every seed property with the same facts (recursively), the same required list. */
function expectConforms(ours: Json, seed: Json, where: string): void {
  expect(facts(ours), where).toEqual(facts(seed));
  if (seed.type === 'object') {
    const seedProps = (seed.properties ?? {}) as Record<string, Json>;
    const ourProps = (ours.properties ?? {}) as Record<string, Json>;
    for (const [name, prop] of Object.entries(seedProps)) {
      expect(ourProps[name], `${where}.${name} exists`).toBeDefined();
      expectConforms(ourProps[name]!, prop, `${where}.${name}`);
    }
    expect([...((ours.required as string[] | undefined) ?? [])].sort(), `${where} required`).toEqual(
      [...((seed.required as string[] | undefined) ?? [])].sort(),
    );
  }
  if (seed.type === 'array') expectConforms(ours.items as Json, seed.items as Json, `${where}[]`);
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Json;
}

/** Fails unless `schema` rejects `value` with an issue at `at`; returns the caller-facing message. */
function rejectedAt(schema: z.ZodType, value: unknown, at: string): string {
  const result = schema.safeParse(value);
  expect(result.success, `${JSON.stringify(value)} should be rejected`).toBe(false);
  const issues = result.error!.issues;
  expect(issues.map((issue) => issue.path.join('.'))).toContain(at);
  return describeIssues(issues);
}

const JOURNEY = '0b9d5a52-1c7e-4d5f-9a43-3f2a8c1e7b10';
const USER = '7d444840-9dc0-11d1-b245-5ffdce74fad2';

describe('journey contracts: conformance to seed 004', () => {
  it('keeps every seed field, type, format, enum, default, range and required list', () => {
    for (const [tool, seed] of Object.entries(SEED_SCHEMAS)) {
      const ours = JOURNEY_TOOL_SCHEMAS[tool as keyof typeof SEED_SCHEMAS];
      expectConforms(jsonSchema(ours.input, 'input'), seed.input, `${tool}.input`);
      expectConforms(jsonSchema(ours.output, 'output'), seed.output, `${tool}.output`);
    }
  });

  // A user's clone has no ../shared: then this cross-check is skipped (and says so), never passed empty.
  const seedFile = path.resolve(__dirname, '../../../../shared/seeds/004_95b04d7d3501ceae.txt');
  it.runIf(fs.existsSync(seedFile))('matches the seed file itself when /work/shared is present', () => {
    const blocks = [...fs.readFileSync(seedFile, 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
      (match) => JSON.parse(match[1]!) as Json,
    );
    const expected = Object.values(SEED_SCHEMAS).flatMap((tool) => [tool.input, tool.output]);
    expect(blocks).toEqual(expected);
  });

  it('lists every tool with an input and an output schema, inputs strict', () => {
    expect(Object.keys(JOURNEY_TOOL_SCHEMAS).sort()).toEqual(
      [
        'add_document_to_journey',
        'delete_journey',
        'get_or_create_journey',
        'query_journey_history',
        'record_session',
      ].sort(),
    );
    for (const { input } of Object.values(JOURNEY_TOOL_SCHEMAS)) {
      expect(jsonSchema(input, 'input').additionalProperties).toBe(false);
    }
  });

  it('describes every field of every input', () => {
    for (const [tool, { input }] of Object.entries(JOURNEY_TOOL_SCHEMAS)) {
      const props = jsonSchema(input, 'input').properties as Record<string, Json>;
      for (const [name, prop] of Object.entries(props)) {
        expect(typeof prop.description, `${tool}.${name}`).toBe('string');
      }
    }
  });
});

describe('journey contracts: inputs', () => {
  it('parses complete examples of every input, applying the seed defaults', () => {
    expect(GetOrCreateJourneyInputSchema.parse({})).toEqual({});
    expect(GetOrCreateJourneyInputSchema.parse({ user_id: USER })).toEqual({ user_id: USER });
    expect(QueryJourneyHistoryInputSchema.parse({ journey_id: JOURNEY })).toEqual({
      journey_id: JOURNEY,
      limit: 10,
      include_documents: false,
    });
    const full = {
      journey_id: JOURNEY,
      query: 'marathon training',
      from_date: '2025-01-01T00:00:00Z',
      to_date: '2025-03-31T23:59:59.999+02:00',
      limit: 100,
      include_documents: true,
    };
    expect(QueryJourneyHistoryInputSchema.parse(full)).toEqual(full);
    const doc = {
      journey_id: JOURNEY,
      document_type: 'woop_plan',
      title: 'Run a half marathon',
      content: 'Wish: ... Outcome: ... Obstacle: ... Plan: ...',
      metadata: { source: 'coach', tags: ['running'] },
    };
    expect(AddDocumentToJourneyInputSchema.parse(doc)).toEqual(doc);
    const session = {
      journey_id: JOURNEY,
      summary: 'Planned the first long run.',
      messages: [{ role: 'user', content: 'hi' }],
      diagnosis: { barrier: 'time' },
      confidence_score: 72.5,
      created_at: '2025-02-01T18:30:00Z',
    };
    expect(RecordSessionInputSchema.parse(session)).toEqual(session);
    expect(DeleteJourneyInputSchema.parse({ journey_id: JOURNEY })).toEqual({ journey_id: JOURNEY });
  });

  it('limit: 1..100 integers only, each bound rejected at `limit`', () => {
    for (const limit of [1, 100]) {
      expect(QueryJourneyHistoryInputSchema.parse({ journey_id: JOURNEY, limit }).limit).toBe(limit);
    }
    for (const limit of [0, 101, -1, 2.5, '10', null]) {
      expect(rejectedAt(QueryJourneyHistoryInputSchema, { journey_id: JOURNEY, limit }, 'limit')).toBe(
        'limit must be an integer from 1 to 100',
      );
    }
  });

  it('document_type: the four seed values, anything else rejected with the seed message', () => {
    for (const document_type of DOCUMENT_TYPES) {
      expect(
        AddDocumentToJourneyInputSchema.parse({ journey_id: JOURNEY, document_type }).document_type,
      ).toBe(document_type);
    }
    expect(DOCUMENT_TYPES).toEqual(['woop_plan', 'file_upload', 'artifact', 'note']);
    for (const document_type of ['pdf', 'WOOP_PLAN', '', 3]) {
      expect(
        rejectedAt(AddDocumentToJourneyInputSchema, { journey_id: JOURNEY, document_type }, 'document_type'),
      ).toBe('document_type must be one of: woop_plan, file_upload, artifact, note');
    }
  });

  it('required fields are rejected at their own path with a message naming them', () => {
    expect(rejectedAt(QueryJourneyHistoryInputSchema, {}, 'journey_id')).toBe('journey_id is required');
    expect(rejectedAt(AddDocumentToJourneyInputSchema, { document_type: 'note' }, 'journey_id')).toBe(
      'journey_id is required',
    );
    expect(rejectedAt(AddDocumentToJourneyInputSchema, { journey_id: JOURNEY }, 'document_type')).toBe(
      'document_type is required',
    );
    expect(rejectedAt(RecordSessionInputSchema, { journey_id: JOURNEY }, 'summary')).toBe(
      'summary is required',
    );
    expect(rejectedAt(DeleteJourneyInputSchema, {}, 'journey_id')).toBe('journey_id is required');
  });

  it('malformed UUIDs and dates are rejected naming the field', () => {
    expect(rejectedAt(QueryJourneyHistoryInputSchema, { journey_id: 'abc' }, 'journey_id')).toBe(
      'journey_id must be a valid UUID',
    );
    expect(rejectedAt(GetOrCreateJourneyInputSchema, { user_id: 'not-a-uuid' }, 'user_id')).toMatch(
      /^user_id must be a valid UUID/,
    );
    for (const bad of ['2025-01-01', '2025-01-01T00:00:00', '2025-02-30T00:00:00Z', 'yesterday', 5]) {
      expect(
        rejectedAt(QueryJourneyHistoryInputSchema, { journey_id: JOURNEY, from_date: bad }, 'from_date'),
      ).toMatch(/^from_date must be an ISO 8601 date-time/);
      expect(
        rejectedAt(QueryJourneyHistoryInputSchema, { journey_id: JOURNEY, to_date: bad }, 'to_date'),
      ).toMatch(/^to_date must be an ISO 8601 date-time/);
    }
  });

  it('from_date after to_date is rejected at from_date; equal instants (a point range) are allowed', () => {
    const at = (from_date: string, to_date: string) => ({ journey_id: JOURNEY, from_date, to_date });
    expect(
      rejectedAt(
        QueryJourneyHistoryInputSchema,
        at('2025-02-01T00:00:00Z', '2025-01-01T00:00:00Z'),
        'from_date',
      ),
    ).toBe('from_date must be before to_date');
    // Compared as instants, not as strings: 02:00+02:00 is 00:00Z.
    expect(
      QueryJourneyHistoryInputSchema.safeParse(at('2025-01-01T02:00:00+02:00', '2025-01-01T00:00:00Z'))
        .success,
    ).toBe(true);
    expect(
      rejectedAt(
        QueryJourneyHistoryInputSchema,
        at('2025-01-01T00:00:01Z', '2025-01-01T01:00:00+02:00'),
        'from_date',
      ),
    ).toBe('from_date must be before to_date');
    // Beyond millisecond precision.
    expect(
      rejectedAt(
        QueryJourneyHistoryInputSchema,
        at('2025-01-01T00:00:00.0002Z', '2025-01-01T00:00:00.0001Z'),
        'from_date',
      ),
    ).toBe('from_date must be before to_date');
    expect(
      QueryJourneyHistoryInputSchema.safeParse(at('2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')).success,
    ).toBe(true);
  });

  it('unknown fields are rejected naming them', () => {
    const message = describeIssues(
      QueryJourneyHistoryInputSchema.safeParse({ journey_id: JOURNEY, search: 'x' }).error!.issues,
    );
    expect(message).toContain('search');
  });

  it('metadata and diagnosis must be JSON objects; messages a JSON array; confidence 0..100', () => {
    for (const metadata of [[], 'x', 3, null]) {
      expect(
        rejectedAt(
          AddDocumentToJourneyInputSchema,
          { journey_id: JOURNEY, document_type: 'note', metadata },
          'metadata',
        ),
      ).toBe('metadata must be a JSON object');
    }
    const base = { journey_id: JOURNEY, summary: 'x' };
    expect(rejectedAt(RecordSessionInputSchema, { ...base, diagnosis: [1] }, 'diagnosis')).toBe(
      'diagnosis must be a JSON object',
    );
    expect(rejectedAt(RecordSessionInputSchema, { ...base, messages: {} }, 'messages')).toBe(
      'messages must be a JSON array',
    );
    for (const confidence_score of [-0.1, 100.5, '50']) {
      expect(rejectedAt(RecordSessionInputSchema, { ...base, confidence_score }, 'confidence_score')).toBe(
        'confidence_score must be a number from 0 to 100',
      );
    }
    expect(RecordSessionInputSchema.safeParse({ ...base, confidence_score: 0 }).success).toBe(true);
    expect(RecordSessionInputSchema.safeParse({ ...base, confidence_score: 100 }).success).toBe(true);
    expect(rejectedAt(RecordSessionInputSchema, { ...base, summary: '   ' }, 'summary')).toBe(
      'summary must not be empty',
    );
  });
});

describe('journey contracts: outputs and errors', () => {
  it('outputs: seed examples parse; each required field is required', () => {
    const journey = {
      journey_id: JOURNEY,
      user_id: null,
      created_at: '2025-01-01T00:00:00.000Z',
      session_count: 0,
      is_new: true,
    };
    expect(GetOrCreateJourneyOutputSchema.parse(journey)).toEqual(journey);
    for (const field of ['journey_id', 'created_at', 'session_count', 'is_new'] as const) {
      const { [field]: _omitted, ...rest } = journey;
      rejectedAt(GetOrCreateJourneyOutputSchema, rest, field);
    }
    const history = {
      journey_id: JOURNEY,
      sessions: [
        {
          session_id: USER,
          created_at: '2025-01-01T00:00:00.000Z',
          summary: 'Long run planned',
          has_diagnosis: false,
          relevance_score: 1,
          snippet: '**Long** run planned',
        },
      ],
      documents: [
        { document_id: USER, document_type: 'note', title: 'Notes', created_at: '2025-01-01T00:00:00.000Z' },
      ],
      total_results: 1,
    };
    expect(QueryJourneyHistoryOutputSchema.parse(history)).toEqual(history);
    for (const field of ['journey_id', 'sessions', 'total_results'] as const) {
      const { [field]: _omitted, ...rest } = history;
      rejectedAt(QueryJourneyHistoryOutputSchema, rest, field);
    }
    const added = {
      document_id: USER,
      journey_id: JOURNEY,
      document_type: 'note',
      created_at: '2025-01-01T00:00:00.000Z',
    };
    expect(AddDocumentToJourneyOutputSchema.parse(added)).toEqual(added);
    for (const field of ['document_id', 'journey_id', 'document_type', 'created_at'] as const) {
      const { [field]: _omitted, ...rest } = added;
      rejectedAt(AddDocumentToJourneyOutputSchema, rest, field);
    }
    rejectedAt(
      RecordSessionOutputSchema,
      { session_id: USER, journey_id: JOURNEY, created_at: 'now', has_diagnosis: false, session_count: 1 },
      'created_at',
    );
  });

  it('error payloads carry the seed statuses', () => {
    expect(journeyErrorPayload(new SwitchyardError('not-found', `Journey ${JOURNEY} not found`))).toEqual({
      error: { status: 404, code: 'NOT_FOUND', message: `Journey ${JOURNEY} not found` },
    });
    const dbError = journeyErrorPayload(
      new SwitchyardError('internal', 'Failed to query history: database is busy', {
        code: 'DATABASE_ERROR',
      }),
    );
    expect(JourneyErrorPayloadSchema.parse(dbError)).toEqual({
      error: { status: 500, code: 'DATABASE_ERROR', message: 'Failed to query history: database is busy' },
    });
    expect(JOURNEY_ERROR_TABLE.codes.VALIDATION_ERROR.status).toBe(400);
  });

  it('compares instants exactly across offsets and beyond milliseconds', () => {
    expect(compareInstants('2025-01-01T02:00:00+02:00', '2025-01-01T00:00:00Z')).toBe(0);
    expect(compareInstants('2025-01-01T00:00:00.0001Z', '2025-01-01T00:00:00Z')).toBeGreaterThan(0);
    expect(parseInstant('2025-01-01T00:00:00.1239Z')).toEqual({
      millis: Date.UTC(2025, 0, 1) + 123,
      rest: 0.9,
    });
    expect(parseInstant('not a date')).toBeUndefined();
  });
});
