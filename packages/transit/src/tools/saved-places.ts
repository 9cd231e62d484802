import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  DeleteUserVariableInputSchema,
  DeleteUserVariableOutputSchema,
  GetUserVariablesInputSchema,
  GetUserVariablesOutputSchema,
  SaveUserVariableInputSchema,
  SaveUserVariableOutputSchema,
  TRANSIT_EXTRA_ERROR_TABLE,
  type SavedPlaceValue,
} from '@switchyard/contracts/transit';
import { hslErrors } from './hints.js';
import { tool } from './spec.js';

const HINTS = {
  key: 'key is 1 to 50 characters of well-formed text, e.g. "home".',
  value:
    "value is { type: 'location', lat, lon, name?, address? }, { type: 'stop', stopId: 'HSL:1040129', name? } " +
    "or { type: 'tfl-stop', naptanId: '940GZZLUOXC', name? }.",
  'value.type': "value.type is 'location', 'stop' or 'tfl-stop'.",
  'value.naptanId': 'A TfL StopPoint (NaPTAN) id such as 940GZZLUOXC (Oxford Circus).',
  'value.stopId': 'Use find_stops to get a stop id such as HSL:1040129.',
};

const ERRORS = hslErrors(TRANSIT_EXTRA_ERROR_TABLE, HINTS, 'Check the key and the value against the schema.');

function notFound(key: string): SwitchyardError {
  return new SwitchyardError('not-found', `No saved place named "${key}"`, {
    hint: 'get_user_variables lists your saved places.',
  });
}

function describeValue(value: SavedPlaceValue): string {
  switch (value.type) {
    case 'stop':
      return `stop ${value.stopId}`;
    case 'tfl-stop':
      return `London stop ${value.naptanId}`;
    case 'location':
      return `location ${value.lat},${value.lon}`;
  }
}

/** The saved-place tools: offered whatever providers are configured. */
export const savedPlaceTools = [
  tool({
    name: 'save_user_variable',
    title: 'Save a place or stop under a name',
    description:
      'Saves a named place for the caller, kept across restarts: a location that plan_trip accepts as a ' +
      '{ type: "label" } place, or a stop (get_departures) or tfl-stop (get_london_arrivals) label. Saving ' +
      'an existing key replaces it and returns the previous value with a key-overwritten warning.',
    input: SaveUserVariableInputSchema,
    output: SaveUserVariableOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    ...ERRORS,
    handler: async (input, call) => {
      const store = await call.state.savedPlaces();
      const { saved, previous } = await store.save(call.principal, input.key, input.value);
      if (previous === undefined) return { saved };
      return {
        saved,
        previous,
        warnings: [
          {
            code: 'key-overwritten' as const,
            message: `"${input.key}" held ${describeValue(previous)}; it now holds ${describeValue(saved.value)}.`,
          },
        ],
      };
    },
  }),
  tool({
    name: 'get_user_variables',
    title: 'List saved places',
    description:
      "Lists the caller's saved places and stops (sorted by key), optionally only one key or one type. Use it " +
      'to find the labels that plan_trip and get_departures accept. A long list comes in pages (see cursor).',
    input: GetUserVariablesInputSchema,
    output: GetUserVariablesOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ...ERRORS,
    // A long list is cut at a place, and the cursor is the last key sent: the next page starts after it.
    paging: {
      lists: ['variables'],
      rest: (cut, _input, payload) => ({
        next_cursor: payload.variables[(cut.kept.variables ?? 1) - 1]?.key ?? null,
      }),
    },
    handler: async (input, call) => {
      const store = await call.state.savedPlaces();
      if (input.key !== undefined) {
        const place = await store.get(call.principal, input.key);
        if (place === undefined) throw notFound(input.key);
        const variables = input.type === undefined || place.value.type === input.type ? [place] : [];
        return { variables, next_cursor: null };
      }
      const places = await store.list(call.principal, { type: input.type, after: input.cursor });
      const variables = places.slice(0, store.maxPlaces);
      return {
        variables,
        next_cursor: places.length > variables.length ? (variables.at(-1)?.key ?? null) : null,
      };
    },
  }),
  tool({
    name: 'delete_user_variable',
    title: 'Delete a saved place',
    description: "Deletes one of the caller's saved places by key and returns what was deleted.",
    input: DeleteUserVariableInputSchema,
    output: DeleteUserVariableOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    ...ERRORS,
    handler: async (input, call) => {
      const store = await call.state.savedPlaces();
      const deleted = await store.delete(call.principal, input.key);
      if (deleted === undefined) throw notFound(input.key);
      return { deleted };
    },
  }),
];
