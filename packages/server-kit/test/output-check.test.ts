import * as journey from '@switchyard/contracts/journey';
import * as launchRuns from '@switchyard/contracts/launch-runs';
import * as transit from '@switchyard/contracts/transit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkerOf, parsedOutput, type OutputVerdict } from '../src/output-check.js';
import type { ObjectSchema } from '../src/tool-spec.js';

/** The cheaper check's verdict on `output`, held to safeParse's: the same verdict, payload and issues. */
function checkedLikeParse(schema: ObjectSchema, output: unknown): OutputVerdict {
  const checked = checkerOf(schema)(output);
  const parsed = parsedOutput(schema, output);
  expect(checked.success).toBe(parsed.success);
  if (checked.success && parsed.success) expect(checked.payload).toStrictEqual(parsed.payload);
  if (!checked.success && !parsed.success) expect(checked.issues).toEqual(parsed.issues);
  return checked;
}

const Leg = z.object({
  mode: z.enum(['BUS', 'TRAM']),
  minutes: z.number().int().min(0).max(600),
  note: z.string().nullable().optional(),
});
const Trip = z
  .object({
    id: z.string().min(1),
    legs: z.array(Leg).max(3),
    tags: z.record(z.string(), z.number()),
    source: z.looseObject({ name: z.string() }),
    exact: z.strictObject({ ok: z.boolean() }),
    kind: z.union([z.literal('plan'), z.literal('replan')]),
  })
  .superRefine((trip, ctx) => {
    if (trip.legs.length === 0) ctx.addIssue({ code: 'custom', message: 'a trip has legs', path: ['legs'] });
  });

function validTrip() {
  return {
    id: 't1',
    legs: [
      { mode: 'BUS', minutes: 12 },
      { mode: 'TRAM', minutes: 3, note: null },
    ],
    tags: { fast: 1 },
    source: { name: 'otp', kept: 'a key the loose object keeps' },
    exact: { ok: true },
    kind: 'plan',
  };
}
type TripOutput = ReturnType<typeof validTrip> & Record<string, unknown>;

/** Outputs that break Trip in one way each. */
const BROKEN: Record<string, (trip: TripOutput) => unknown> = {
  'a missing field': ({ id: _id, ...rest }) => rest,
  'a wrong type': (trip) => ({ ...trip, legs: [{ mode: 'BUS', minutes: '12' }] }),
  'a number below its range': (trip) => ({ ...trip, legs: [{ mode: 'BUS', minutes: -1 }] }),
  'a number above its range': (trip) => ({ ...trip, legs: [{ mode: 'BUS', minutes: 601 }] }),
  'a fraction where an integer belongs': (trip) => ({ ...trip, legs: [{ mode: 'BUS', minutes: 1.5 }] }),
  'a value outside its enum': (trip) => ({ ...trip, legs: [{ mode: 'FERRY', minutes: 1 }] }),
  'a literal outside its union': (trip) => ({ ...trip, kind: 'cancel' }),
  'an array over its bound': (trip) => ({ ...trip, legs: [...trip.legs, ...trip.legs] }),
  'an unknown key in a strict object': (trip) => ({ ...trip, exact: { ok: true, extra: 1 } }),
  'a record value of the wrong type': (trip) => ({ ...trip, tags: { fast: 'yes' } }),
  'null where an object belongs': (trip) => ({ ...trip, source: null }),
  'a refinement it fails': (trip) => ({ ...trip, legs: [] }),
  'not an object at all': () => 'trip',
};

describe('the output check', () => {
  it('sends a valid output itself, equal to the copy safeParse would have made', () => {
    const output = validTrip();
    const checked = checkedLikeParse(Trip, output);
    expect(checked).toMatchObject({ success: true });
    expect(checked.success && checked.payload).toBe(output);
  });

  for (const [fault, broken] of Object.entries(BROKEN)) {
    it(`refuses ${fault} as safeParse does, with its issues`, () => {
      expect(checkedLikeParse(Trip, broken(validTrip())).success).toBe(false);
    });
  }

  it('sends the copy without the keys the contract strips, never the output with them', () => {
    const trip = validTrip();
    const output = { ...trip, legs: [{ ...trip.legs[0], internal: 7 }], secret: 'not in the contract' };
    const checked = checkedLikeParse(Trip, output);
    expect(checked.success && checked.payload).not.toBe(output);
    expect(JSON.stringify(checked.success && checked.payload)).not.toMatch(/secret|internal/);
  });

  it('parses where the parse changes the value: defaults, transforms, trims, coercion', () => {
    const changing: [ObjectSchema, unknown][] = [
      [z.object({ n: z.number().default(3) }), {}],
      [z.object({ n: z.string().transform((text) => text.length) }) as ObjectSchema, { n: 'four' }],
      [z.object({ name: z.string().trim() }), { name: '  padded  ' }],
      [z.object({ n: z.coerce.number() }), { n: '5' }],
    ];
    for (const [schema, output] of changing) {
      const checked = checkedLikeParse(schema, output);
      expect(checked.success && checked.payload).not.toBe(output);
    }
  });

  it('parses a union of stripping objects, whose first option may take a value by dropping keys', () => {
    const Either = z.object({
      pick: z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]),
    });
    const checked = checkedLikeParse(Either, { pick: { a: 'x', b: 1 } });
    expect(checked.success && checked.payload).toEqual({ pick: { a: 'x' } });
  });

  it('parses a recursive schema, which it does not walk', () => {
    const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const Tree = z.object({ root: Node });
    checkedLikeParse(Tree, { root: { name: 'all', children: [{ name: 'trams', children: [] }] } });
    checkedLikeParse(Tree, { root: { name: 'all', children: [{ name: 1, children: [] }] } });
  });
});

/** Every success and error payload schema the domains' tool specs name, from the contracts. */
const CONTRACT_SCHEMAS = Object.entries({ ...transit, ...journey, ...launchRuns }).filter(([name]) =>
  /(OutputSchema|ErrorPayloadSchema)$/.test(name),
) as [string, ObjectSchema][];

describe("every contract's output check", () => {
  it('finds the contracts’ payload schemas', () => {
    expect(CONTRACT_SCHEMAS.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'PlanTripOutputSchema',
        'GetLineStatusOutputSchema',
        'LaunchGetStatusOutputSchema',
      ]),
    );
  });

  for (const [name, schema] of CONTRACT_SCHEMAS) {
    it(`${name}: refuses broken outputs as safeParse does`, () => {
      for (const broken of [null, [], 'text', 7, {}, { unexpected: true }, { error: null }])
        expect(checkedLikeParse(schema, broken).success).toBe(false);
    });
  }
});
