import { SwitchyardError } from '@switchyard/contracts/errors';
import { journeyErrorPayload } from '@switchyard/contracts/journey';
import { z } from 'zod';
import type { RequestCall } from '@switchyard/server-kit';
import type { JourneyState } from '../open.js';
import { ownOwner } from '../tools/acting-for.js';
import { prompt } from '../tools/spec.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS = { error: 'days must be a whole number from 1 to 366' };
const Arguments = z.object({
  user_id: z.uuid({ error: 'user_id must be a UUID, e.g. 123e4567-e89b-12d3-a456-426614174000' }),
  // Digits only: Number() would also read "0x1e" or "1e2".
  days: z
    .string()
    .regex(/^\d+$/, DAYS)
    .default('30')
    .transform(Number)
    .pipe(z.number().min(1, DAYS).max(366, DAYS)),
});

/** The `days` a recap is usually asked for, offered as completions. */
const USUAL_DAYS = ['7', '14', '30', '90', '180', '365'];
/** How many user ids a completion offers (the most MCP lets one completion carry). */
const COMPLETED_USER_IDS = 100;

/** `user_id`: the users of the caller's own journeys whose id starts with what was typed, recent first. */
async function completeUserId(value: string, call: RequestCall<JourneyState>): Promise<string[]> {
  const service = await call.state.service('getOrCreateJourney');
  return service.userIds({ owner: ownOwner(call) }, value, COMPLETED_USER_IDS);
}

/** "Summarise this journey's last month": the two calls that find it, and what a good recap says. */
export const recapPrompt = prompt({
  name: 'journey_recap',
  title: "Summarise a journey's recent sessions",
  description:
    "Recaps a person's journey over the last days (30 by default): what was discussed, decided and left " +
    'open, with the documents kept along the way.',
  arguments: [
    {
      name: 'user_id',
      description: "The person's user id (a UUID)",
      required: true,
      complete: completeUserId,
    },
    {
      name: 'days',
      description: 'How many days back to look, 1 to 366 (default 30)',
      complete: async (value) => USUAL_DAYS.filter((days) => days.startsWith(value.trim())),
    },
  ],
  tools: ['get_or_create_journey', 'query_journey_history'],
  get: async (args) => {
    const parsed = Arguments.safeParse({ user_id: args.user_id, days: args.days?.trim() || undefined });
    if (!parsed.success) {
      throw new SwitchyardError('validation', parsed.error.issues.map((issue) => issue.message).join('; '));
    }
    const { user_id, days } = parsed.data;
    const from = new Date(Date.now() - days * DAY_MS).toISOString();
    return [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Summarise my journey over the last ${days} days. Call get_or_create_journey with ` +
            `{"user_id":"${user_id}"} and then query_journey_history with its journey_id, ` +
            `{"from_date":"${from}","include_documents":true,"limit":100}. From the sessions and documents, ` +
            'tell me: what we worked on, what was decided, what is still open, and which documents matter ' +
            'now. Quote dates; do not invent anything the history does not say.',
        },
      },
    ];
  },
  errorPayload: journeyErrorPayload,
});
