import type http from 'node:http';
import type { JSONRPCErrorResponse, JSONRPCRequest } from '@modelcontextprotocol/server';
import type { ListenCaller, ListenSink, TaskListens } from '../task-listens.js';
import { sendJson } from './responses.js';

/** As the SDK's listen streams: a comment this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/** The SDK's listen stream headers, so a listen the kit serves looks like one the SDK serves. */
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * A listen for task notifications answered on its POST (task-listens.ts): an SSE stream opened with its
 * acknowledgement and ended after its final result, or a JSON-RPC error (status 200, as the SDK answers a
 * listen it refuses). The client closing the response ends the listen.
 */
export async function serveTaskListenStream(
  listens: TaskListens,
  request: JSONRPCRequest,
  caller: ListenCaller,
  res: http.ServerResponse,
): Promise<JSONRPCErrorResponse | undefined> {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  let keepAlive: NodeJS.Timeout | undefined;
  const sink: ListenSink = {
    send(message) {
      if (!res.headersSent) {
        res.writeHead(200, SSE_HEADERS);
        keepAlive = setInterval(() => res.write(': keepalive\n\n'), KEEP_ALIVE_MS).unref();
      }
      res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    },
    end() {
      clearInterval(keepAlive);
      res.end();
    },
  };
  const refusal = await listens.serve(request, caller, sink, gone.signal);
  if (refusal !== undefined) sendJson(res, 200, refusal);
  return refusal;
}
