// GraphQL errors as OTP (graphql-java) prints them: `message`, `locations`, `path`, `extensions.classification`.
import { Kind, visit } from 'graphql';
import type { ASTNode, DocumentNode, GraphQLError } from 'graphql';

export interface OtpGraphQLError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions: { readonly classification: string };
}

/**
 * An error in graphql-java's shape, with graphql-js's locations when it has them (a key whose value is undefined
 * is left out of the JSON, as graphql-java leaves it out).
 */
function otpError(
  error: GraphQLError,
  message: string,
  classification: string,
  path?: readonly (string | number)[],
): OtpGraphQLError {
  const locations = error.locations?.map(({ line, column }) => ({ line, column }));
  return { message, locations, path, extensions: { classification } };
}

/** `Invalid syntax with offending token '<EOF>' at line 1 column 9` */
export function syntaxError(error: GraphQLError): OtpGraphQLError {
  const location = error.locations?.[0];
  const token =
    /(?:found|Unexpected) (?:Name |String |Int |Float |BlockString )?"?(.*?)"?\.$/.exec(error.message)?.[1] ??
    '<EOF>';
  const message = location
    ? `Invalid syntax with offending token '${token}' at line ${location.line} column ${location.column}`
    : `Invalid syntax: ${error.message}`;
  return otpError(error, message, 'InvalidSyntax');
}

/** Query paths (field names, as graphql-java reports them) of every field and argument node. */
function queryPaths(document: DocumentNode): Map<ASTNode, string> {
  const paths = new Map<ASTNode, string>();
  const stack: string[] = [];
  visit(document, {
    Field: {
      enter(node) {
        stack.push(node.name.value);
        paths.set(node, stack.join('/'));
        for (const argument of node.arguments ?? []) paths.set(argument, stack.join('/'));
      },
      leave() {
        stack.pop();
      },
    },
    FragmentDefinition: {
      enter() {
        stack.length = 0;
      },
    },
  });
  return paths;
}

/** graphql-js's validation messages as graphql-java words them: the kind, the pattern, the message (`$n`: groups). */
// prettier-ignore
const REWRITES: readonly (readonly [kind: string, pattern: RegExp, message: string])[] = [
  ['FieldUndefined', /^Cannot query field "(.+?)" on type "(.+?)"\./, "Field '$1' in type '$2' is undefined"],
  ['UnknownArgument', /^Unknown argument "(.+?)" on field/, "Unknown field argument '$1'"],
  ['MissingFieldArgument', /^Field "(.+?)" argument "(.+?)" of type "(.+?)" is required/, "Missing field argument '$2'"],
  ['SubselectionRequired', /^Field "(.+?)" of type "(.+?)" must have a selection of subfields/,
    "Subselection required for type '$2' of field '$1'"],
  ['SubselectionNotAllowed', /^Field "(.+?)" must not have a selection since type "(.+?)" has no subfields/,
    "Subselection not allowed on leaf type '$2' of field '$1'"],
  ['UnknownType', /^Unknown type "(.+?)"\./, "Unknown type '$1'"],
  ['UndefinedVariable', /^Variable "\$(.+?)" is not defined/, "Undefined variable '$1'"],
  ['UnusedVariable', /^Variable "\$(.+?)" is never used/, "Unused variable '$1'"],
  ['VariableTypeMismatch', /^Variable "\$(.+?)" of type "(.+?)" used in position expecting type "(.+?)"\./,
    "Variable '$1' of type '$2' used in position expecting type '$3'"],
  ['UndefinedFragment', /^Unknown fragment "(.+?)"\./, "Undefined fragment '$1'"],
  ['UnusedFragment', /^Fragment "(.+?)" is never used\./, "Unused fragment '$1'"],
  ['FieldsConflict', /^Fields "(.+?)" conflict because (.+?)\. Use different aliases/, '$1: $2'],
  ['WrongType', /^(.+ cannot represent .+|Expected value of type .+)$/, '$1'],
];

/** `Validation error (FieldUndefined@[stop/foo]) : Field 'foo' in type 'Stop' is undefined` */
export function validationErrors(errors: readonly GraphQLError[], document: DocumentNode): OtpGraphQLError[] {
  const paths = queryPaths(document);
  return errors.map((error) => {
    const rewrite = REWRITES.find(([, pattern]) => pattern.test(error.message));
    const node = error.nodes?.[0];
    const path =
      node && (node.kind === Kind.FIELD || node.kind === Kind.ARGUMENT) ? paths.get(node) : undefined;
    const [kind, pattern, message] = rewrite ?? ['ValidationError'];
    // Only the matched part, rewritten: the rest of graphql-js's message (suggestions) is not graphql-java's.
    const text = pattern ? pattern.exec(error.message)![0].replace(pattern, message!) : error.message;
    return otpError(
      error,
      `Validation error (${kind}${path ? `@[${path}]` : ''}) : ${text}`,
      'ValidationError',
    );
  });
}

/** Errors that stop execution before it starts (variables, operation selection). */
export function requestErrors(errors: readonly GraphQLError[]): OtpGraphQLError[] {
  return errors.map((error) => otpError(error, error.message, 'ValidationError'));
}

/** A resolver failure: `Exception while fetching data (/stop) : invalid feed-scoped-id: 1040129` */
export function fieldErrors(errors: readonly GraphQLError[]): OtpGraphQLError[] {
  return errors.map((error) => {
    const path = error.path ?? [];
    const nonNull = error.message.startsWith('Cannot return null for non-nullable field');
    const message = nonNull
      ? `The field at path '/${path.join('/')}' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.`
      : `Exception while fetching data (/${path.join('/')}) : ${error.message}`;
    return otpError(error, message, nonNull ? 'NullValueInNonNullableField' : 'DataFetchingException', path);
  });
}
