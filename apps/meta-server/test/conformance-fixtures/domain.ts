import { setTimeout as sleep } from 'node:timers/promises';
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  ask,
  askClient,
  declares,
  defineDomain,
  elicited,
  jsonSchemaInput,
  listedRoots,
  sampledText,
  specsFor,
  X_MCP_HEADER,
  type AskClient,
  type ClientCapabilityName,
  type ContentBlock,
  type Domain,
  type DomainLifecycle,
  type ResourceContents,
  type ToolCall,
} from '@switchyard/server-kit';
import { z } from 'zod';
import { FixtureTaskBoard, taskTools, type FixtureState } from './tasks.js';

/**
 * The fixtures the official conformance suite calls by name on the server it tests (the reference "everything"
 * server's tools, resources and prompts, with the content its scenarios expect), declared as a Switchyard domain
 * through server-kit. Test-only: no published server mounts it (test/conformance-fixtures.test.ts serves it).
 */
const { tool, resource, prompt } = specsFor<DomainLifecycle, undefined>();

/** A 1x1 red PNG and an eight-sample silent WAV (8 kHz, mono, 8 bits). */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const SILENT_WAV = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';

const errorPayload = (error: SwitchyardError) => ({
  error: { code: error.code ?? error.kind.toUpperCase(), message: error.message },
});
const NoInput = z.strictObject({});
const Said = z.strictObject({ text: z.string().describe('What the tool says.') });
const Attached = z.strictObject({
  attached: z.array(z.string()).describe('The kinds of content added after this JSON text.'),
});
/** The pause between a fixture's progress reports or log messages, as the scenarios describe. */
const STEP_DELAY_MS = 50;
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const PICTURE: ContentBlock = { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' };
const embedded = (uri: string, mimeType: string, text: string): ContentBlock => ({
  type: 'resource',
  resource: { uri, mimeType, text },
});

/** A tool without arguments whose payload says which content blocks follow it. */
function contentTool(name: string, title: string, blocks: ContentBlock[]) {
  return tool({
    name,
    title,
    description: `Conformance fixture: answers with ${blocks.map((block) => block.type).join(', ')} content.`,
    input: NoInput,
    output: Attached,
    annotations: READ_ONLY,
    errorPayload,
    content: () => blocks,
    handler: () => ({ attached: blocks.map((block) => block.type) }),
  });
}

/** A tool that logs three info messages about 50 ms apart while it runs. */
function loggingTool(name: string, description: string) {
  return tool({
    name,
    title: 'Logs while it runs',
    description,
    input: NoInput,
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: async (_input, call) => {
      const messages = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
      for (const [index, message] of messages.entries()) {
        if (index > 0) await sleep(STEP_DELAY_MS, undefined, { signal: call.signal });
        call.log?.('info', message);
      }
      return { text: 'Logged three messages.' };
    },
  });
}

/** A form elicitation of one text (or boolean) field, as the SEP-2322 scenarios ask it. */
function askFor(message: string, field: string, type: 'string' | 'boolean' = 'string') {
  return ask.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [field]: type === 'string' ? { type: 'string' } : { type: 'boolean' } },
      required: [field],
    },
  });
}
const askName = (message = 'What is your name?') => askFor(message, 'name');
const askCapital = () =>
  ask.sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  });
/** The round a fixture's own request state names (0 on a first call, or for a state of another shape). */
const roundOf = (state: unknown): number =>
  typeof state === 'object' && state !== null && typeof (state as { round?: unknown }).round === 'number'
    ? (state as { round: number }).round
    : 0;

/**
 * A SEP-2322 fixture: a tool without arguments whose handler answers a text or asks the client (through
 * server-kit's askClient) and is called again with the answers.
 */
function askingTool(
  name: string,
  description: string,
  answer: (call: ToolCall<DomainLifecycle>) => string | AskClient,
  requires?: ClientCapabilityName[],
) {
  return tool({
    name,
    title: name.replace(/^test_/, '').replaceAll('_', ' '),
    description: `Conformance fixture (SEP-2322): ${description}`,
    input: NoInput,
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    ...(requires === undefined ? {} : { requires }),
    handler: (_input, call) => {
      const said = answer(call);
      return typeof said === 'string' ? { text: said } : said;
    },
  });
}

/** Asks the name (elicitation), then greets: two fixtures' whole work. */
function greetByName(call: ToolCall<DomainLifecycle>): string | AskClient {
  const name = elicited(call, 'user_name')?.name;
  return typeof name === 'string' ? `Hello, ${name}!` : askClient({ user_name: askName() });
}

const askingTools = [
  askingTool(
    'test_input_required_result_elicitation',
    'asks the name (elicitation), then greets.',
    greetByName,
  ),
  askingTool('test_input_required_result_sampling', "asks the client's model a question.", (call) => {
    const said = sampledText(call, 'capital_question');
    return said ?? askClient({ capital_question: askCapital() });
  }),
  askingTool('test_input_required_result_list_roots', "asks the client's roots.", (call) => {
    const roots = listedRoots(call, 'client_roots');
    return roots === undefined ? askClient({ client_roots: ask.listRoots() }) : `Roots: ${roots.join(', ')}`;
  }),
  askingTool(
    'test_input_required_result_request_state',
    'asks a confirmation, keeping request state.',
    (call) => {
      const confirmed = elicited(call, 'confirm')?.ok;
      if (roundOf(call.requestState) === 1 && typeof confirmed === 'boolean')
        return `state-ok: confirmed ${String(confirmed)}`;
      return askClient({ confirm: askFor('Please confirm', 'ok', 'boolean') }, { round: 1 });
    },
  ),
  askingTool(
    'test_input_required_result_multiple_inputs',
    'asks elicitation, sampling and roots at once.',
    (call) => {
      const name = elicited(call, 'user_name')?.name;
      const greeting = sampledText(call, 'greeting');
      const roots = listedRoots(call, 'client_roots');
      if (roundOf(call.requestState) === 1 && typeof name === 'string' && greeting !== undefined && roots)
        return `${greeting} ${name} (${roots.length} roots)`;
      return askClient(
        {
          user_name: askName(),
          greeting: ask.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          }),
          client_roots: ask.listRoots(),
        },
        { round: 1 },
      );
    },
  ),
  askingTool('test_input_required_result_multi_round', 'asks in two rounds, its state evolving.', (call) => {
    const round = roundOf(call.requestState);
    const name = elicited(call, 'step1')?.name;
    const color = elicited(call, 'step2')?.color;
    if (round === 2 && typeof color === 'string') {
      const { name: known } = call.requestState as { name: string };
      return `${known} likes ${color}`;
    }
    if (round === 1 && typeof name === 'string') {
      return askClient(
        { step2: askFor('Step 2: What is your favorite color?', 'color') },
        { round: 2, name },
      );
    }
    return askClient({ step1: askName('Step 1: What is your name?') }, { round: 1 });
  }),
  askingTool('test_input_required_result_tampered_state', 'asks a confirmation with sealed state.', (call) =>
    roundOf(call.requestState) === 1 && elicited(call, 'confirm') !== undefined
      ? 'Confirmed with untouched state.'
      : askClient({ confirm: askFor('Please confirm', 'ok', 'boolean') }, { round: 1 }),
  ),
  askingTool(
    'test_input_required_result_capabilities',
    'asks only what the client declared it can answer.',
    (call) => {
      const can = (capability: ClientCapabilityName) => declares(call.clientCapabilities, capability);
      const answered = sampledText(call, 'capital_question') ?? elicited(call, 'user_name')?.name;
      if (answered !== undefined) return String(answered);
      if (can('sampling')) return askClient({ capital_question: askCapital() });
      if (can('elicitation')) return askClient({ user_name: askName() });
      return 'The client declared nothing to ask.';
    },
  ),
  // server-stateless (2026-07-28) calls it without declaring sampling: refused with -32021.
  askingTool(
    'test_missing_capability',
    "needs the client's sampling (diagnostic).",
    (call) => sampledText(call, 'capital_question') ?? askClient({ capital_question: askCapital() }),
    ['sampling'],
  ),
  // server-stateless (2026-07-28): the elicitation travels in the result, never as a request on the stream.
  askingTool(
    'test_streaming_elicitation',
    'asks the name while its response streams (diagnostic).',
    greetByName,
  ),
];

const tools = [
  tool({
    name: 'test_simple_text',
    title: 'Simple text',
    description: 'Conformance fixture: answers with a fixed text.',
    input: NoInput,
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: () => ({ text: 'This is a simple text response for testing.' }),
  }),
  tool({
    name: 'test_error_handling',
    title: 'Always fails',
    description: 'Conformance fixture: always answers with an error result.',
    input: NoInput,
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: () => {
      throw new SwitchyardError('validation', 'This tool intentionally returns an error for testing', {
        code: 'INTENTIONAL_ERROR',
      });
    },
  }),
  tool({
    name: 'test_tool_with_progress',
    title: 'Reports progress',
    description: 'Conformance fixture: reports progress 0, 50 and 100 of 100, about 50 ms apart.',
    input: NoInput,
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: async (_input, call) => {
      for (const [index, progress] of [0, 50, 100].entries()) {
        if (index > 0) await sleep(STEP_DELAY_MS, undefined, { signal: call.signal });
        await call.progress.report(progress, 100);
      }
      return { text: 'Progress reported: 0, 50 and 100 of 100.' };
    },
  }),
  loggingTool('test_tool_with_logging', 'Conformance fixture: logs three info messages, about 50 ms apart.'),
  // server-stateless (2026-07-28) calls it without a logLevel in the request's _meta: nothing may be sent.
  loggingTool('test_logging_tool', 'Conformance fixture (diagnostic): logs as test_tool_with_logging does.'),
  contentTool('test_image_content', 'Image content', [PICTURE]),
  contentTool('test_audio_content', 'Audio content', [
    { type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' },
  ]),
  contentTool('test_embedded_resource', 'Embedded resource', [
    embedded('test://embedded-resource', 'text/plain', 'This is an embedded resource content.'),
  ]),
  contentTool('test_multiple_content_types', 'Several kinds of content', [
    { type: 'text', text: 'Multiple content types test:' },
    PICTURE,
    embedded('test://mixed-content-resource', 'application/json', '{"test":"data","value":123}'),
  ]),
  ...askingTools,
  // json-schema-2020-12 (SEP-1613, SEP-2106): the suite's own input schema, stated and listed as it is written.
  tool({
    name: 'json_schema_2020_12_tool',
    title: 'JSON Schema 2020-12 input',
    description:
      'Conformance fixture: an input zod cannot state ($anchor, allOf/anyOf, if/then/else), validated as 2020-12.',
    input: jsonSchemaInput({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    }),
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: (input) => ({
      text: `Would contact ${String(input.name ?? 'them')} at ${String(input.phone ?? input.email)}.`,
    }),
  }),
  // http-custom-header-server-validation (SEP-2243): the first tool listed with an x-mcp-header string parameter.
  tool({
    name: 'test_custom_header',
    title: 'Region in a header',
    description: 'Conformance fixture: its region travels in the Mcp-Param-Region header too.',
    input: z.strictObject({
      region: z
        .string()
        .describe('Where to run.')
        .meta({ [X_MCP_HEADER]: 'Region' }),
      query: z.string().describe('What to run.'),
    }),
    output: Said,
    annotations: READ_ONLY,
    errorPayload,
    handler: (input) => ({ text: `Would run ${input.query} in ${input.region}.` }),
  }),
];

const resourceErrors = { errorPayload };

/** A resource with one fixed URI and fixed contents. */
function staticResource(
  uri: string,
  description: string,
  contents: { mimeType: string } & ({ text: string } | { blob: string }),
) {
  const name = uri.replace('test://', '');
  return resource({
    name,
    uriTemplate: uri,
    title: name,
    description,
    mimeType: contents.mimeType,
    list: async () => [{ uri, name, description, mimeType: contents.mimeType }],
    read: async (): Promise<ResourceContents[]> => [{ uri, ...contents }],
    ...resourceErrors,
  });
}

const resources = [
  staticResource('test://static-text', 'Conformance fixture: a fixed text.', {
    mimeType: 'text/plain',
    text: 'This is the content of the static text resource.',
  }),
  staticResource('test://static-binary', 'Conformance fixture: a 1x1 red PNG.', {
    mimeType: 'image/png',
    blob: RED_PIXEL_PNG,
  }),
  resource({
    name: 'template-data',
    uriTemplate: 'test://template/{id}/data',
    title: 'Data by id',
    description: 'Conformance fixture: JSON naming the id in its URI.',
    mimeType: 'application/json',
    read: async (uri, { id = '' }) => [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
    ...resourceErrors,
  }),
];

/** What `arg1` of test_prompt_with_arguments completes to. */
const ARG1_SUGGESTIONS = ['paris', 'park', 'party', 'helsinki'];

const prompts = [
  prompt({
    name: 'test_input_required_result_prompt',
    title: 'Prompt that asks first',
    description: 'Conformance fixture (SEP-2322): asks the context (elicitation), then writes the message.',
    arguments: [],
    tools: [],
    get: async (_args, call) => {
      const context = elicited(call, 'user_context')?.context;
      if (typeof context !== 'string')
        return askClient({ user_context: askFor('What context should the prompt use?', 'context') });
      return [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }];
    },
    errorPayload,
  }),
  prompt({
    name: 'test_simple_prompt',
    title: 'Simple prompt',
    description: 'Conformance fixture: one fixed message.',
    arguments: [],
    tools: [],
    get: async () => [
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ],
    errorPayload,
  }),
  prompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'Conformance fixture: a message naming both arguments.',
    arguments: [
      {
        name: 'arg1',
        description: 'First test argument',
        required: true,
        complete: async (value) => ARG1_SUGGESTIONS.filter((word) => word.startsWith(value)),
      },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    tools: [],
    get: async ({ arg1, arg2 }) => [
      {
        role: 'user',
        content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
      },
    ],
    errorPayload,
  }),
  prompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt with an embedded resource',
    description: 'Conformance fixture: a message embedding the named resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    tools: [],
    get: async ({ resourceUri = '' }) => [
      {
        role: 'user',
        content: embedded(resourceUri, 'text/plain', 'Embedded resource content for testing.'),
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
    errorPayload,
  }),
  prompt({
    name: 'test_prompt_with_image',
    title: 'Prompt with an image',
    description: 'Conformance fixture: a message with an image.',
    arguments: [],
    tools: [],
    get: async () => [
      { role: 'user', content: PICTURE },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
    errorPayload,
  }),
];

/** The fixtures as one domain, without configuration; its state is the board of its tasks. */
export const conformanceFixturesDomain: Domain<undefined, FixtureState> = defineDomain({
  name: 'conformance-fixtures',
  version: '0.0.0',
  title: 'Conformance fixtures',
  instructions: "The official MCP conformance suite's fixture tools, resources and prompts (tests only).",
  toolPrefix: 'test',
  config: () => undefined,
  open: () => ({ board: new FixtureTaskBoard(), async close() {} }),
  tools: [...tools, ...taskTools],
  resources,
  prompts,
  tasks: (state: FixtureState) => state.board,
});
