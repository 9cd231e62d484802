import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildCatalog, defineDomain, type Domain, type ToolSpec } from '../src/index.js';
import { ScopeTable } from '../src/scopes.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { notesDomain } from './fixtures/notes-domain.js';

function tool(name: string, readOnlyHint: boolean, scope?: string): ToolSpec {
  return {
    name,
    title: name,
    description: name,
    input: z.strictObject({}),
    output: z.strictObject({}),
    annotations: { readOnlyHint, openWorldHint: false },
    ...(scope === undefined ? {} : { scope }),
    errorPayload: () => ({ error: {} }),
    handler: () => ({}),
  };
}

function domain(scopes: Domain['scopes'], tools: ToolSpec[]): Domain {
  return defineDomain({
    name: 'launch-runs',
    version: '1.0.0',
    title: 'Launch',
    instructions: 'test',
    toolPrefix: 'launch',
    ...(scopes === undefined ? {} : { scopes }),
    config: () => undefined,
    open: () => ({ close: async () => {} }),
    tools,
  });
}

function tableOf(...domains: Domain[]): ScopeTable {
  return new ScopeTable(
    buildCatalog(
      domains.map((d) => ({ domain: d, config: undefined })),
      {},
    ),
  );
}

const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });

describe('ScopeTable', () => {
  it('lists a domain’s extra scopes as supported, but not among the scopes a challenge asks for', () => {
    const table = tableOf(
      domain({ read: 'launch:read', write: 'launch:run', extra: ['launch:admin'] }, [
        tool('start_run', false),
      ]),
    );
    expect(table.supported).toEqual(['launch:admin', 'launch:run']);
    expect(table.requested).toEqual(['launch:run']);
    expect(() =>
      tableOf(domain({ read: 'r', write: 'w', extra: ['not a scope'] }, [tool('start_run', false)])),
    ).toThrow(/not an OAuth scope token/);
  });

  it('defaults to <prefix>:read for read-only tools and <prefix>:write for the others', () => {
    const table = tableOf(domain(undefined, [tool('get_run', true), tool('start_run', false)]));
    expect(table.needFor(call('get_run'))?.scope).toBe('launch:read');
    expect(table.needFor(call('start_run'))?.scope).toBe('launch:write');
    expect(table.supported).toEqual(['launch:read', 'launch:write']);
  });

  it("uses the domain's declared scopes, and a tool's own scope over them", () => {
    const table = tableOf(
      domain({ read: 'launch:run', write: 'launch:run' }, [
        tool('get_run', true),
        tool('launch_open_pr', false, 'launch:pr'),
      ]),
    );
    expect(table.needFor(call('get_run'))).toEqual({ scope: 'launch:run', target: 'the tool "get_run"' });
    expect(table.needFor(call('launch_open_pr'))?.scope).toBe('launch:pr');
    expect(table.supported).toEqual(['launch:pr', 'launch:run']);
  });

  it("asks the domain's read scope for its resources, and nothing for lists, unknown tools or junk", () => {
    const table = tableOf(echoDomain());
    const read = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'echo://info' } };
    expect(table.needFor(read)?.scope).toBe('echo:read');
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      call('no_such_tool'),
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'other://x' } },
      null,
      'text',
      [call('echo_text')],
    ]) {
      expect(table.needFor(message)).toBeUndefined();
    }
  });

  it("asks the read scope of the domain whose resource template is most specific, and a prompt's domain's", () => {
    /** A domain offering one resource template and one prompt, under its default scopes. */
    const offering = (name: string, uriTemplate: string): Domain =>
      defineDomain({
        name,
        version: '1.0.0',
        title: name,
        instructions: 'test',
        toolPrefix: name,
        config: () => undefined,
        open: () => ({ close: async () => {} }),
        tools: [tool(`${name}_get`, true)],
        resources: [
          {
            name: `${name}-item`,
            uriTemplate,
            title: name,
            description: name,
            read: async () => [],
            errorPayload: () => ({ error: { code: 'X', message: 'x' } }),
          },
        ],
        prompts: [
          {
            name: `${name}-prompt`,
            title: name,
            description: name,
            arguments: [],
            tools: [],
            get: async () => [],
            errorPayload: () => ({ error: { code: 'X', message: 'x' } }),
          },
        ],
      });
    const docs = offering('docs', 'docs://{path}');
    const archive = offering('archive', 'docs://archive/{id}');
    const read = (uri: string) => ({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    const get = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name } });
    // Either mount order: the longer literal prefix decides, not which domain came first.
    for (const table of [tableOf(docs, archive), tableOf(archive, docs)]) {
      expect(table.needFor(read('docs://archive/7'))?.scope).toBe('archive:read');
      expect(table.needFor(read('docs://readme'))?.scope).toBe('docs:read');
      expect(table.needFor(get('archive-prompt'))).toEqual({
        scope: 'archive:read',
        target: 'the prompt "archive-prompt"',
      });
      expect(table.needFor(get('docs-prompt'))?.scope).toBe('docs:read');
      expect(table.needFor(get('no-such-prompt'))).toBeUndefined();
    }
  });

  it('asks the read scope of the domain whose prompt or resource template a completion names', () => {
    const table = tableOf(echoDomain(), notesDomain());
    const complete = (ref: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'completion/complete',
      params: { ref, argument: { name: 'id', value: '' } },
    });
    expect(table.needFor(complete({ type: 'ref/resource', uri: 'notes://{id}' }))).toEqual({
      scope: 'notes:read',
      target: 'completing the resource',
    });
    expect(table.needFor(complete({ type: 'ref/prompt', name: 'recall_note' }))).toEqual({
      scope: 'notes:read',
      target: 'completing the prompt "recall_note"',
    });
    expect(table.needFor(complete({ type: 'ref/resource', uri: 'echo://info' }))?.scope).toBe('echo:read');
    for (const ref of [
      { type: 'ref/prompt', name: 'no_such_prompt' },
      { type: 'ref/resource', uri: 'other://{id}' },
      { type: 'ref/other', name: 'recall_note' },
      { type: 'ref/prompt', name: 7 },
    ]) {
      expect(table.needFor(complete(ref)), JSON.stringify(ref)).toBeUndefined();
    }
    expect(table.needFor({ jsonrpc: '2.0', id: 1, method: 'completion/complete' })).toBeUndefined();
  });

  it('refuses a declared scope that is not an OAuth scope token', () => {
    expect(() => tableOf(domain(undefined, [tool('bad', true, 'two words')]))).toThrow(
      /tool "bad" declares the scope "two words", which is not an OAuth scope token/,
    );
  });
});
