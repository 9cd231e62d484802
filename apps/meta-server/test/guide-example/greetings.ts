import {
  defineDomain,
  specsFor,
  type AutoMount,
  type DomainLifecycle,
  type Env,
} from '@switchyard/server-kit';
import { z } from 'zod';

// 1. The configuration: read from the environment, failing with the variable's name.
export interface GreetingsConfig {
  word: string;
}

export function loadGreetingsConfig(env: Env): GreetingsConfig {
  const word = env.GREETINGS_WORD?.trim() || 'Hello';
  if (!/^\p{L}{1,20}$/u.test(word)) throw new Error('GREETINGS_WORD must be one word of 1 to 20 letters');
  return { word };
}

// 2. The state `open` returns once per process; handlers receive it as `call.state`.
interface GreetingsState extends DomainLifecycle {
  word: string;
  greeted: number;
}

// 3. A tool: contract-shaped input and output, annotations, and what an error answers.
const { tool } = specsFor<GreetingsState, GreetingsConfig>();

export const greetTool = tool({
  name: 'greet',
  title: 'Greet someone',
  description: 'Greets a person by name with the configured word.',
  input: z.strictObject({ name: z.string().min(1).max(100).describe('Who to greet.') }),
  output: z.strictObject({
    greeting: z.string().describe('The greeting.'),
    count: z.number().int().describe('Greetings this process has given, this one included.'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorPayload: (error) => ({ error: { code: error.kind, message: error.message } }),
  handler: ({ name }, call) => {
    call.state.greeted += 1;
    return { greeting: `${call.state.word}, ${name}!`, count: call.state.greeted };
  },
});

// 4. The domain, declared once as data.
export const greetingsDomain = defineDomain({
  name: 'greetings',
  version: '0.1.0',
  title: 'Greetings',
  instructions: 'greet says hello to a person by name.',
  toolPrefix: 'greetings',
  config: loadGreetingsConfig,
  describe: (config, _dataDir, why) => `word "${config.word}"${why === undefined ? '' : `: ${why}`}`,
  open: (config): GreetingsState => ({ word: config.word, greeted: 0, close: async () => {} }),
  tools: [greetTool],
});

// 5. How it mounts in the combined server: in a module of its own that imports nothing else at run time, so a
//    server that skips the domain never loads its package.
export const autoMountGreetings: AutoMount = (env, named) => {
  if (named) return { mount: true, env, why: 'named in --domains' };
  if (env.GREETINGS_WORD !== undefined) return { mount: true, env, why: 'GREETINGS_WORD is set' };
  return { mount: false, reason: 'GREETINGS_WORD is not set; set it to add the greet tool' };
};
