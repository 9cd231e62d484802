// TfL line status on the wire: `Tfl.Api.Presentation.Entities.Line[]` from `/Line/{ids}/Status`,
// `/Line/{ids}/Status/{StartDate}/to/{EndDate}` and `/Line/Mode/{modes}/Status`, read leniently from field
// tables (see ../wire-record.ts): a line without an id, or a status without a severity, is left out.
import { lenientItems, lenientRecord, listSchema, required, type ReadValue } from '../wire-record.js';
import { readBoolean, readNonEmptyString, readNumber, readText } from '../wire.js';

const readValidityPeriod = lenientRecord({
  fromDate: readText,
  toDate: readText,
  isNow: readBoolean,
});

const readDisruption = lenientRecord({
  category: readText,
  categoryDescription: readText,
  description: readText,
  closureText: readText,
});

const readLineStatus = lenientRecord({
  statusSeverity: required(readNumber),
  statusSeverityDescription: readText,
  reason: readText,
  validityPeriods: lenientItems(readValidityPeriod),
  disruption: readDisruption,
});
export type LineStatusWire = ReadValue<typeof readLineStatus>;

const readLine = lenientRecord({
  id: required(readNonEmptyString),
  name: readText,
  modeName: readText,
  lineStatuses: lenientItems(readLineStatus),
});
export type LineWire = ReadValue<typeof readLine>;

/** The answer must be a list; items that are not readable lines are left out. */
export const LineListSchema = listSchema(readLine);
