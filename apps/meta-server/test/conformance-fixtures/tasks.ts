import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  ask,
  askClient,
  elicited,
  specsFor,
  taskStarted,
  type DomainLifecycle,
  type TaskBoard,
  type TaskOutcome,
  type TaskRef,
  type TaskSnapshot,
  type TaskStatus,
  type ToolCall,
} from '@switchyard/server-kit';
import { z } from 'zod';

type InputRequest = ReturnType<typeof ask.elicit>;

/**
 * The conformance suite's Tasks fixtures (tasks-* scenarios): tools that answer with a task, kept on an in-memory
 * board whose work runs on timers in this process. Test-only, as the rest of the fixtures.
 */
export interface FixtureState extends DomainLifecycle {
  readonly board: FixtureTaskBoard;
}

interface HeldTask {
  principal: string;
  snapshot: TaskSnapshot;
  /** The work still to run (a timer), cleared on cancel. */
  timer?: NodeJS.Timeout;
  /** What the task waits on, by key, and what it does once every key is answered. */
  waiting?: {
    requests: Record<string, InputRequest>;
    then: (answers: Record<string, unknown>) => TaskOutcome;
  };
  answers: Record<string, unknown>;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Tasks in a map, each seen only by the principal that created it. */
export class FixtureTaskBoard implements TaskBoard {
  private readonly tasks = new Map<string, HeldTask>();

  /** Starts a task that reaches `outcome` after `afterMs` (working until then). */
  start(call: ToolCall<FixtureState>, tool: string, afterMs: number, outcome: () => TaskOutcome): string {
    const task = this.create(call, tool, 'working');
    task.timer = setTimeout(() => this.finish(task, outcome()), afterMs);
    task.timer.unref();
    return call.task!.id;
  }

  /** Starts a task that waits for the client's answers to `requests`, then reaches `then(answers)`. */
  ask(
    call: ToolCall<FixtureState>,
    tool: string,
    requests: Record<string, InputRequest>,
    then: (answers: Record<string, unknown>) => TaskOutcome,
  ): string {
    const task = this.create(call, tool, 'input_required');
    task.waiting = { requests, then };
    task.snapshot.inputRequests = { ...requests };
    return call.task!.id;
  }

  get(ref: TaskRef): Promise<TaskSnapshot | undefined> {
    return Promise.resolve(this.held(ref)?.snapshot);
  }

  update(ref: TaskRef, inputResponses: Readonly<Record<string, unknown>>): Promise<boolean> {
    const task = this.held(ref);
    if (task === undefined) return Promise.resolve(false);
    const waiting = task.waiting;
    if (waiting !== undefined && task.snapshot.status === 'input_required') {
      for (const [key, answer] of Object.entries(inputResponses))
        if (key in waiting.requests) task.answers[key] = answer;
      const pending = Object.keys(waiting.requests).filter((key) => !(key in task.answers));
      if (pending.length === 0) this.finish(task, waiting.then(task.answers));
      else
        task.snapshot = {
          ...task.snapshot,
          lastUpdatedAt: new Date(),
          inputRequests: Object.fromEntries(pending.map((key) => [key, waiting.requests[key]!])),
        };
    }
    return Promise.resolve(true);
  }

  cancel(ref: TaskRef): Promise<boolean> {
    const task = this.held(ref);
    if (task === undefined) return Promise.resolve(false);
    if (!TERMINAL.has(task.snapshot.status)) {
      clearTimeout(task.timer);
      this.settle(task, 'cancelled');
    }
    return Promise.resolve(true);
  }

  private create(call: ToolCall<FixtureState>, tool: string, status: TaskStatus): HeldTask {
    if (call.task === undefined) throw new Error('no task was offered');
    const now = new Date();
    const task: HeldTask = {
      principal: call.principal,
      snapshot: { tool, status, createdAt: now, lastUpdatedAt: now, ttlMs: call.task.ttlMs },
      answers: {},
    };
    this.tasks.set(call.task.id, task);
    return task;
  }

  private held(ref: TaskRef): HeldTask | undefined {
    const task = this.tasks.get(ref.taskId);
    return task?.principal === ref.principal ? task : undefined;
  }

  private finish(task: HeldTask, outcome: TaskOutcome): void {
    this.settle(task, outcome.kind === 'protocol-error' ? 'failed' : 'completed', outcome);
  }

  private settle(task: HeldTask, status: TaskStatus, outcome?: TaskOutcome): void {
    const { inputRequests: _answered, ...rest } = task.snapshot;
    task.snapshot = { ...rest, status, lastUpdatedAt: new Date(), ...(outcome ? { outcome } : {}) };
  }
}

const { tool } = specsFor<FixtureState, undefined>();
const errorPayload = (error: SwitchyardError) => ({
  error: { code: error.code ?? error.kind.toUpperCase(), message: error.message },
});
const Said = z.strictObject({ text: z.string().describe('What the tool says.') });
const ErrorOutput = z.strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) });
const WORKS = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/** Whether an elicitation answer accepted with `confirm: true`. */
const confirmed = (answer: unknown): boolean =>
  (answer as { action?: unknown; content?: { confirm?: unknown } } | undefined)?.action === 'accept' &&
  (answer as { content?: { confirm?: unknown } }).content?.confirm === true;
const said = (text: string): TaskOutcome => ({ kind: 'output', output: { text } });
const FAILING_JOB_MS = 1_000;
const CONFIRM = (message: string): InputRequest =>
  ask.elicit({
    message,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
const NAME_QUESTION = ask.elicit({
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

/** A task tool's common parts: the fixture's output, its error payload, its annotations. */
const taskTool = {
  output: Said,
  errorOutput: ErrorOutput,
  annotations: WORKS,
  errorPayload,
  task: 'always',
} as const;

export const taskTools = [
  tool({
    name: 'greet',
    title: 'Greets',
    description: 'Conformance fixture: answers Hello, {name}! (never as a task).',
    input: z.strictObject({ name: z.string().describe('Who to greet.') }),
    output: Said,
    annotations: { readOnlyHint: true, openWorldHint: false },
    errorPayload,
    handler: ({ name }) => ({ text: `Hello, ${name}!` }),
  }),
  tool({
    ...taskTool,
    name: 'slow_compute',
    title: 'Computes slowly',
    description:
      'Conformance fixture: sleeps `seconds`, then answers; as a task when the client can follow one.',
    input: z.strictObject({
      seconds: z.number().min(0).max(600).describe('How long the work takes.'),
      label: z.string().max(200).optional().describe('A name for the run, echoed in the answer.'),
    }),
    handler: async ({ seconds, label = 'compute' }, call) => {
      const answer = `Computed ${label} after ${seconds}s`;
      if (call.task === undefined) return { text: answer };
      return taskStarted(call.state.board.start(call, 'slow_compute', seconds * 1_000, () => said(answer)));
    },
  }),
  tool({
    ...taskTool,
    name: 'failing_job',
    title: 'Fails',
    description: 'Conformance fixture: a tool execution error after about a second.',
    input: z.strictObject({}),
    handler: (_input, call) => {
      const error = new SwitchyardError('upstream-error', 'The job failed', { code: 'JOB_FAILED' });
      if (call.task === undefined) throw error;
      return taskStarted(
        call.state.board.start(call, 'failing_job', FAILING_JOB_MS, () => ({ kind: 'refusal', error })),
      );
    },
  }),
  tool({
    ...taskTool,
    name: 'protocol_error_job',
    title: 'Breaks',
    description: 'Conformance fixture: the work ends in a protocol-level (JSON-RPC) error.',
    input: z.strictObject({}),
    handler: (_input, call) => {
      if (call.task === undefined) throw new Error('The job broke');
      return taskStarted(
        call.state.board.start(call, 'protocol_error_job', 0, () => ({
          kind: 'protocol-error',
          code: -32603,
          message: 'The job broke',
        })),
      );
    },
  }),
  tool({
    ...taskTool,
    name: 'confirm_delete',
    title: 'Confirms a deletion',
    description: 'Conformance fixture: a task that asks the client to confirm (elicitation), then completes.',
    input: z.strictObject({ filename: z.string().max(200).describe('The file to delete.') }),
    handler: ({ filename }, call) => {
      if (call.task === undefined) return { text: `Not deleted: ${filename} (no task to confirm in)` };
      const requests = { confirm: CONFIRM(`Delete ${filename}?`) };
      return taskStarted(
        call.state.board.ask(call, 'confirm_delete', requests, (answers) =>
          said(`${confirmed(answers.confirm) ? 'Deleted' : 'Kept'} ${filename}`),
        ),
      );
    },
  }),
  tool({
    ...taskTool,
    name: 'multi_input',
    title: 'Asks twice at once',
    description:
      'Conformance fixture: a task that asks two questions at once and completes when both are answered.',
    input: z.strictObject({}),
    handler: (_input, call) => {
      if (call.task === undefined) return { text: 'No task to ask in' };
      const requests = { name: NAME_QUESTION, confirm: CONFIRM('Proceed?') };
      return taskStarted(
        call.state.board.ask(call, 'multi_input', requests, (answers) =>
          said(`Answered: ${Object.keys(answers).sort().join(', ')}`),
        ),
      );
    },
  }),
  tool({
    ...taskTool,
    name: 'test_tool_with_task',
    title: 'Asks, then works as a task',
    description: 'Conformance fixture: asks the name (multi round-trip), then greets as a task.',
    input: z.strictObject({}),
    handler: (_input, call) => {
      const name = elicited(call, 'user_name')?.name;
      if (typeof name !== 'string') return askClient({ user_name: NAME_QUESTION }, { round: 1 });
      if (call.task === undefined) return { text: `Hello, ${name}!` };
      return taskStarted(
        call.state.board.start(call, 'test_tool_with_task', 0, () => said(`Hello, ${name}!`)),
      );
    },
  }),
];
