import { z } from 'zod';
import {
  InstantSchema,
  isWellFormedText,
  LatitudeSchema,
  LongitudeSchema,
  wellFormedTextError,
  WarningSchema,
} from './common.js';
import { GTFS_ID_PATTERN } from './departures.js';
import { NAPTAN_ID_PATTERN } from './london-arrivals.js';

export const SAVED_PLACE_KEY_MAX = 50;

/**
 * The form keys are compared and stored in: "café" typed as one code point (NFC) or as "e" plus a combining
 * accent (NFD) looks the same, so it is one key.
 */
export const SAVED_PLACE_KEY_FORM = 'NFC';

/** A saved-place key as stored and compared: trimmed, in Unicode NFC. */
export function canonicalSavedPlaceKey(key: string): string {
  return key.trim().normalize(SAVED_PLACE_KEY_FORM);
}

export const SavedPlaceKeySchema = z
  .string()
  .overwrite(canonicalSavedPlaceKey)
  .min(1, 'key must not be blank')
  .max(SAVED_PLACE_KEY_MAX, `key must be 1 to ${SAVED_PLACE_KEY_MAX} characters`)
  .refine(isWellFormedText, wellFormedTextError('key'))
  .describe('Your name for the place, e.g. "home" or "work stop" (case-sensitive).');

export const SavedLocationSchema = z
  .strictObject({
    type: z.literal('location').describe('A location: usable as plan_trip origin or destination label.'),
    lat: LatitudeSchema,
    lon: LongitudeSchema,
    name: z.string().trim().min(1).max(200).optional().describe('A display name, e.g. "Home".'),
    address: z.string().trim().min(1).max(300).optional().describe('A street address.'),
  })
  .describe('A saved location.');

export const SavedStopSchema = z
  .strictObject({
    type: z.literal('stop').describe('A stop: usable as the get_departures stop label.'),
    stopId: z
      .string()
      .trim()
      .regex(GTFS_ID_PATTERN, 'value.stopId must be a GTFS id FEED:ID, e.g. HSL:1040129 (see find_stops)')
      .describe('GTFS stop id FEED:ID, e.g. HSL:1040129 (find_stops finds it).'),
    name: z.string().trim().min(1).max(200).optional().describe('A display name, e.g. "Rautatientori".'),
  })
  .describe('A saved stop.');

export const SavedTflStopSchema = z
  .strictObject({
    type: z.literal('tfl-stop').describe('For get_london_arrivals.'),
    naptanId: z
      .string()
      .trim()
      .regex(NAPTAN_ID_PATTERN, 'value.naptanId must be a TfL StopPoint (NaPTAN) id, e.g. 940GZZLUOXC')
      .describe('NaPTAN id, e.g. 940GZZLUOXC.'),
    name: z.string().trim().min(1).max(200).optional().describe('Display name.'),
  })
  .describe('A saved London stop.');

export const SAVED_PLACE_TYPES = ['location', 'stop', 'tfl-stop'] as const;

export const SavedPlaceValueSchema = z
  .discriminatedUnion('type', [SavedLocationSchema, SavedStopSchema, SavedTflStopSchema], {
    error: (issue) =>
      issue.input === undefined ? undefined : "value.type must be 'location', 'stop' or 'tfl-stop'",
  })
  .describe('A location or a stop.');
export type SavedPlaceValue = z.infer<typeof SavedPlaceValueSchema>;

export const SavedPlaceSchema = z
  .object({
    key: z.string().describe('The saved place key.'),
    value: SavedPlaceValueSchema,
    createdAt: InstantSchema.describe('When the key was first saved.'),
    updatedAt: InstantSchema.describe('When the value was last written.'),
  })
  .describe('A saved place of the caller.');
export type SavedPlace = z.infer<typeof SavedPlaceSchema>;

export const SaveUserVariableInputSchema = z
  .strictObject({ key: SavedPlaceKeySchema, value: SavedPlaceValueSchema })
  .describe('save_user_variable input.');
export type SaveUserVariableInput = z.input<typeof SaveUserVariableInputSchema>;

export const SaveUserVariableOutputSchema = z
  .object({
    saved: SavedPlaceSchema,
    previous: SavedPlaceValueSchema.optional().describe(
      'The value the key held before, when it was overwritten.',
    ),
    warnings: z.array(WarningSchema).optional().describe('key-overwritten when the key already existed.'),
  })
  .describe('save_user_variable result.');
export type SaveUserVariableOutput = z.infer<typeof SaveUserVariableOutputSchema>;

export const GetUserVariablesInputSchema = z
  .strictObject({
    key: SavedPlaceKeySchema.optional().describe('Only this key (not-found when it does not exist).'),
    type: z
      .enum(SAVED_PLACE_TYPES, { error: "type must be 'location', 'stop' or 'tfl-stop'" })
      .optional()
      .describe('Only places of this type.'),
    cursor: z
      .string({ error: 'cursor must be the next_cursor of an earlier answer' })
      .max(200, { error: 'cursor must be the next_cursor of an earlier answer' })
      .optional()
      .describe('The next_cursor of an earlier answer: the places after it.'),
  })
  .describe('get_user_variables input: no fields lists every saved place.');
export type GetUserVariablesInput = z.input<typeof GetUserVariablesInputSchema>;

export const GetUserVariablesOutputSchema = z
  .object({
    variables: z.array(SavedPlaceSchema).describe('The caller’s saved places, sorted by key.'),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Pass as cursor for the places after these: more are saved than one answer holds; null when none ' +
          'are left (additive: Switchyard always sends it).',
      ),
  })
  .describe('get_user_variables result.');
export type GetUserVariablesOutput = z.infer<typeof GetUserVariablesOutputSchema>;

export const DeleteUserVariableInputSchema = z
  .strictObject({ key: SavedPlaceKeySchema })
  .describe('delete_user_variable input.');
export type DeleteUserVariableInput = z.input<typeof DeleteUserVariableInputSchema>;

export const DeleteUserVariableOutputSchema = z
  .object({
    deleted: SavedPlaceSchema.describe('The saved place that was removed.'),
  })
  .describe('delete_user_variable result.');
export type DeleteUserVariableOutput = z.infer<typeof DeleteUserVariableOutputSchema>;
