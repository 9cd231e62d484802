// One GraphQL request, the way OTP handles it: read the body, parse, validate against the schema, execute.
import { execute, executeSync, GraphQLError, Kind, parse, validate } from 'graphql';
import type { DocumentNode, FieldNode, OperationDefinitionNode } from 'graphql';
import type { GraphQLRequestBody, IncomingRequest } from '../http.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import type { ResolverContext } from './context.js';
import { fieldErrors, requestErrors, syntaxError, validationErrors } from './errors.js';
import type { OtpGraphQLError } from './errors.js';
import { rootValue } from './resolvers.js';
import { otpSchema } from './schema.js';

/** The JSON body OTP returns: `errors` first when present; `data` absent when execution never started. */
export interface OtpGraphQLResponse {
  readonly errors?: readonly OtpGraphQLError[];
  readonly data?: Record<string, unknown> | null;
}

type Parsed = { readonly document: DocumentNode } | { readonly response: OtpGraphQLResponse };

function parseAndValidate(query: string): Parsed {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return { response: { errors: [syntaxError(error)] } };
    throw error;
  }
  const problems = validate(otpSchema(), document);
  if (problems.length > 0) return { response: { errors: validationErrors(problems, document) } };
  return { document };
}

type BodyRead = { readonly graphql: GraphQLRequestBody } | { readonly error: MockReply };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `variables` as an object, or as a string of JSON that holds one (undefined when it does not). */
function readVariables(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || value === '') return isObject(value) ? value : {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The GraphQL request in a POST body, or the reply OTP gives a body it cannot read. */
export function readGraphQL(incoming: IncomingRequest): BodyRead {
  const type = (incoming.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/graphql')) return { graphql: { query: incoming.body, variables: {} } };
  if (!type.startsWith('application/json')) return { error: reply.text(415, '', undefined) };
  let parsed: unknown;
  try {
    parsed = incoming.body.trim() === '' ? null : JSON.parse(incoming.body);
  } catch (error) {
    return { error: reply.text(400, `Unable to process JSON: ${(error as Error).message}`) };
  }
  if (!isObject(parsed) || !('query' in parsed)) return { error: reply.text(400, 'No query found in body') };
  const variables = readVariables(parsed['variables']);
  if (variables === undefined) return { error: reply.text(400, 'Variables must be a valid json object') };
  const { operationName } = parsed;
  return {
    graphql: {
      query: String(parsed['query']),
      variables,
      ...(typeof operationName === 'string' ? { operationName } : {}),
    },
  };
}

/** Messages of the validation errors OTP would report for this document (empty when it is valid). */
export function validateOtpQuery(query: string): readonly string[] {
  const parsed = parseAndValidate(query);
  return 'response' in parsed ? (parsed.response.errors ?? []).map((e) => e.message) : [];
}

export async function runGraphQL(
  request: GraphQLRequestBody,
  context: ResolverContext,
): Promise<OtpGraphQLResponse> {
  const parsed = parseAndValidate(request.query);
  if ('response' in parsed) return parsed.response;
  const result = await execute({
    schema: otpSchema(),
    document: parsed.document,
    rootValue: rootValue(),
    contextValue: context,
    variableValues: request.variables,
    operationName: request.operationName || undefined,
  });
  if (result.data === undefined) return { errors: requestErrors(result.errors ?? []) };
  return {
    ...(result.errors && result.errors.length > 0 ? { errors: fieldErrors(result.errors) } : {}),
    data: result.data ?? null,
  };
}

/** HTTP 200, `data: null` and one data-fetching error on the first root field (the `graphql-errors` scenario). */
export function failedExecution(query: string, message: string): OtpGraphQLResponse {
  const parsed = parseAndValidate(query);
  if ('response' in parsed) return parsed.response;
  const operation = parsed.document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const field = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
  const key = field ? (field.alias?.value ?? field.name.value) : 'data';
  return { errors: fieldErrors([new GraphQLError(message, { nodes: field, path: [key] })]), data: null };
}

/**
 * `data` as OTP would send it for this request's own query: a field the query does not select is dropped,
 * one it selects and `data` lacks is null; a query OTP would refuse gets OTP's validation errors. Canned data
 * OTP's schema could not produce (a non-null field missing, an unknown enum value, a list that is not one)
 * throws (the mock then answers 500 and logs why), so that a test expecting an answer cannot pass on a reply
 * real OTP never sends; a deliberately malformed body goes out with `reply.json` instead.
 */
export function projectOntoQuery(
  request: GraphQLRequestBody | undefined,
  data: Record<string, unknown>,
): OtpGraphQLResponse {
  if (request === undefined) throw new Error('projectOntoQuery: the request carried no GraphQL query');
  const parsed = parseAndValidate(request.query);
  if ('response' in parsed) return parsed.response;
  const result = executeSync({
    schema: otpSchema(),
    document: parsed.document,
    rootValue: data,
    variableValues: request.variables,
    operationName: request.operationName || undefined,
  });
  if (result.errors !== undefined && result.errors.length > 0) {
    const problems = result.errors.map((error) => `${error.path?.join('.') ?? '(root)'}: ${error.message}`);
    throw new Error(`canned OTP data breaks the schema for this query: ${problems.join('; ')}`);
  }
  return { data: result.data ?? null };
}

/** HTTP 200 with `body`'s data projected onto the request's query (projectOntoQuery) and its errors as given. */
export function otpReply(
  request: { readonly graphql?: GraphQLRequestBody },
  body: { readonly data: Record<string, unknown>; readonly errors?: readonly OtpGraphQLError[] },
): MockReply {
  const projected = projectOntoQuery(request.graphql, body.data);
  const refused = projected.data === undefined;
  return reply.json(
    200,
    refused || body.errors === undefined ? projected : { errors: body.errors, ...projected },
  );
}
