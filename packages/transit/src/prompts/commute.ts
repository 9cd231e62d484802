import { hslErrorPayload, TRANSIT_EXTRA_ERROR_TABLE } from '@switchyard/contracts/transit';
import { newCorrelationId } from '@switchyard/resilience/context';
import type { RequestCall } from '@switchyard/server-kit';
import type { TransitState } from '../services.js';
import { hslConfigured, prompt } from '../tools/spec.js';

/** The caller's saved locations (plan_trip takes only those as labels) that start with what was typed. */
async function savedLocations(value: string, call: RequestCall<TransitState>): Promise<string[]> {
  const places = await (await call.state.savedPlaces()).list(call.principal, { type: 'location' });
  const typed = value.normalize('NFC').toLowerCase();
  return places.map((place) => place.key).filter((key) => key.toLowerCase().startsWith(typed));
}

/** "Plan my commute from a saved place": a plan_trip between two saved locations, told as a person would. */
export const commutePrompt = prompt({
  name: 'commute',
  title: 'Plan my commute from a saved place',
  description:
    'Plans a Helsinki-region public transport trip between two of your saved places (save them first with ' +
    'save_user_variable), leaving now or at a time you give.',
  arguments: [
    {
      name: 'from',
      description: 'The saved place to start from, e.g. home',
      required: true,
      complete: savedLocations,
    },
    {
      name: 'to',
      description: 'The saved place to go to, e.g. work',
      required: true,
      complete: savedLocations,
    },
    {
      name: 'leave_at',
      description:
        'When to leave: "now" (the default) or an ISO 8601 date-time such as 2026-11-24T08:15:00+02:00',
    },
  ],
  tools: ['plan_trip', 'get_user_variables'],
  when: hslConfigured,
  get: async ({ from, to, leave_at }) => {
    const time = leave_at?.trim() || 'now';
    const call = {
      origin: { type: 'label', value: from },
      destination: { type: 'label', value: to },
      when: { type: 'depart', time },
    };
    return [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Plan my commute from my saved place "${from}" to "${to}", leaving ${time === 'now' ? 'now' : `at ${time}`}. ` +
            `Call plan_trip with ${JSON.stringify(call)}. If it answers that a label is not saved, call ` +
            'get_user_variables and ask me which of my saved places I meant. Then tell me the two best ' +
            'itineraries: when to leave and when I arrive, each line and where to change, how far I walk, and ' +
            'any delay or cancellation on a leg.',
        },
      },
    ];
  },
  errorPayload: (error) => hslErrorPayload(TRANSIT_EXTRA_ERROR_TABLE, error, newCorrelationId()),
});
