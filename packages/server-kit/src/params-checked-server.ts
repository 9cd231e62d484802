import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  specTypeSchemas,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describeIssues } from '@switchyard/contracts/errors';

/** The spec's schema of each request whose params a caller writes (`tools/call` has its own check). */
const REQUEST_SCHEMAS: Readonly<Record<string, keyof typeof specTypeSchemas>> = {
  'logging/setLevel': 'SetLevelRequest',
  'resources/read': 'ReadResourceRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
};

/** What the spec finds wrong with `request` (`params.level: Invalid option: ...`), or undefined. */
function specProblem(request: JSONRPCRequest): string | undefined {
  const schema = REQUEST_SCHEMAS[request.method];
  if (schema === undefined) return undefined;
  const checked = specTypeSchemas[schema]['~standard'].validate(request);
  if (checked instanceof Promise || checked.issues === undefined) return undefined;
  return describeIssues(
    checked.issues.map(({ path = [], message }) => ({
      path: path.map((segment) => (typeof segment === 'object' ? segment.key : segment)),
      message,
    })),
  );
}

/** Carries a tools/call's `CreateTaskResult` around the SDK's CallToolResult normalization and check. */
class TaskAnswer {
  constructor(readonly result: Result) {}
}

/**
 * The SDK's `Server`, except that a request whose params break the spec answers -32602 (invalid params)
 * saying what to fix. The SDK checks every request against the spec, but answers a failure as -32603
 * (internal error) with its whole issue list in the message: `logging/setLevel {level: "bogus"}` read as a
 * server fault. Only what already failed is looked at again, so a valid request costs nothing more. And a
 * tools/call answered with a task (`resultType: "task"`) goes out as the Tasks extension shapes it.
 */
export class ParamsCheckedServer extends Server {
  /**
   * The SDK builds a "Connection closed" error on every close, for the requests still pending, which are
   * none once an answer went out. Over HTTP a server closes after each request, and capturing that error's
   * stack took about 5% of a cheap tool call's CPU: it is built without one (a pending request still gets it).
   */
  protected override _onclose(): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super._onclose();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      // A task (the Tasks extension) is no CallToolResult: past the SDK's tools/call result checks, as it is.
      if (method === 'tools/call' && result.resultType === 'task') throw new TaskAnswer(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswer) return error.result;
        const problem = error instanceof ProtocolError ? undefined : specProblem(request);
        if (problem === undefined) throw error;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`);
      }
    };
  }
}
