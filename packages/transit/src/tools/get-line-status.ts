import {
  GetLineStatusInputSchema,
  GetLineStatusOutputSchema,
  lineStatusErrorEnvelope,
} from '@switchyard/contracts/transit';
import { configured } from '../services.js';
import { getLineStatus } from '../tfl/line-status.js';
import { READS_UPSTREAM, tflErrors } from './hints.js';
import { offeredWithTfl, tool } from './spec.js';
import { messagePaging } from './answer-limit.js';

export const getLineStatusTool = tool({
  name: 'get_line_status',
  title: 'London line status (TfL)',
  description:
    'Status and disruptions of London lines or whole modes (TfL), now or for planned works over days.',
  input: GetLineStatusInputSchema,
  output: GetLineStatusOutputSchema,
  annotations: READS_UPSTREAM,
  view: 'line-status',
  paging: messagePaging({
    list: 'lines',
    items: 'lines',
    narrower: 'ask for fewer lines (line_ids) or one mode at a time',
  }),
  ...tflErrors(lineStatusErrorEnvelope),
  ...offeredWithTfl,
  handler: async (input, call) =>
    getLineStatus(configured(call.state.tfl, 'tfl').lineStatus, input, call.signal),
});
