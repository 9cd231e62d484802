// TfL line status on the wire: `Tfl.Api.Presentation.Entities.Line[]` from `/Line/{ids}/Status`,
// `/Line/{ids}/Status/{StartDate}/to/{EndDate}` and `/Line/Mode/{modes}/Status`, parsed leniently (see
// ../wire.ts): a line without an id, or a status without a severity, is left out.
import { z } from 'zod';
import { lenientList, listOf, optionalBoolean, optionalObject, optionalText, wireNumber } from '../wire.js';

const ValidityPeriodSchema = z.object({
  fromDate: optionalText,
  toDate: optionalText,
  isNow: optionalBoolean,
});

const DisruptionSchema = z.object({
  category: optionalText,
  categoryDescription: optionalText,
  description: optionalText,
  closureText: optionalText,
});

const LineStatusWireSchema = z.object({
  statusSeverity: wireNumber,
  statusSeverityDescription: optionalText,
  reason: optionalText,
  validityPeriods: lenientList(ValidityPeriodSchema),
  disruption: optionalObject(DisruptionSchema),
});
export type LineStatusWire = z.infer<typeof LineStatusWireSchema>;

const LineWireSchema = z.object({
  id: z.string().min(1),
  name: optionalText,
  modeName: optionalText,
  lineStatuses: lenientList(LineStatusWireSchema),
});
export type LineWire = z.infer<typeof LineWireSchema>;

/** The answer must be a list; items that are not readable lines are left out. */
export const LineListSchema = listOf(LineWireSchema);
