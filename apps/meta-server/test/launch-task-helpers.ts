import { expect } from 'vitest';

// What the end-to-end tests of launch runs as MCP tasks share: the server's environment and a task's answer.

type Json = Record<string, unknown>;

/**
 * The launch-runs domain alone, its repositories allowed under `reposDir`; polls are paced at 20 ms so tests
 * stay quick.
 */
export function launchTaskEnv(reposDir: string, extra: Record<string, string>): Record<string, string> {
  return {
    SWITCHYARD_DOMAINS: 'launch-runs',
    LAUNCH_REPO_ROOTS: reposDir,
    SWITCHYARD_TASK_POLL_INTERVAL_MS: '20',
    ...extra,
  };
}

/** The tool's answer a completed task carries. */
export function taskAnswerOf(task: Json): Json {
  expect(task.status, JSON.stringify(task)).toBe('completed');
  const result = task.result as Json;
  expect(result.isError, JSON.stringify(result)).toBeUndefined();
  return result.structuredContent as Json;
}
