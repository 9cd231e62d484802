// GraphQL errors as OTP (graphql-java) prints them: `message`, `locations`, `path`, `extensions.classification`.
import { Kind, visit } from 'graphql';
import type { ASTNode, DocumentNode, GraphQLError } from 'graphql';

export interface OtpGraphQLError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions: { readonly classification: string };
}

function locationsOf(error: GraphQLError): { line: number; column: number }[] | undefined {
  return error.locations?.map(({ line, column }) => ({ line, column }));
}

/** `Invalid syntax with offending token '<EOF>' at line 1 column 9` */
export function syntaxError(error: GraphQLError): OtpGraphQLError {
  const location = error.locations?.[0];
  const token =
    /(?:found|Unexpected) (?:Name |String |Int |Float |BlockString )?"?(.*?)"?\.$/.exec(error.message)?.[1] ??
    '<EOF>';
  return {
    message: location
      ? `Invalid syntax with offending token '${token}' at line ${location.line} column ${location.column}`
      : `Invalid syntax: ${error.message}`,
    ...(location ? { locations: [{ line: location.line, column: location.column }] } : {}),
    extensions: { classification: 'InvalidSyntax' },
  };
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

interface Rewrite {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly message: (m: RegExpExecArray) => string;
}

const REWRITES: readonly Rewrite[] = [
  {
    kind: 'FieldUndefined',
    pattern: /^Cannot query field "(.+?)" on type "(.+?)"\./,
    message: (m) => `Field '${m[1]}' in type '${m[2]}' is undefined`,
  },
  {
    kind: 'UnknownArgument',
    pattern: /^Unknown argument "(.+?)" on field/,
    message: (m) => `Unknown field argument '${m[1]}'`,
  },
  {
    kind: 'MissingFieldArgument',
    pattern: /^Field "(.+?)" argument "(.+?)" of type "(.+?)" is required/,
    message: (m) => `Missing field argument '${m[2]}'`,
  },
  {
    kind: 'SubselectionRequired',
    pattern: /^Field "(.+?)" of type "(.+?)" must have a selection of subfields/,
    message: (m) => `Subselection required for type '${m[2]}' of field '${m[1]}'`,
  },
  {
    kind: 'SubselectionNotAllowed',
    pattern: /^Field "(.+?)" must not have a selection since type "(.+?)" has no subfields/,
    message: (m) => `Subselection not allowed on leaf type '${m[2]}' of field '${m[1]}'`,
  },
  { kind: 'UnknownType', pattern: /^Unknown type "(.+?)"\./, message: (m) => `Unknown type '${m[1]}'` },
  {
    kind: 'UndefinedVariable',
    pattern: /^Variable "\$(.+?)" is not defined/,
    message: (m) => `Undefined variable '${m[1]}'`,
  },
  {
    kind: 'UnusedVariable',
    pattern: /^Variable "\$(.+?)" is never used/,
    message: (m) => `Unused variable '${m[1]}'`,
  },
  {
    kind: 'VariableTypeMismatch',
    pattern: /^Variable "\$(.+?)" of type "(.+?)" used in position expecting type "(.+?)"\./,
    message: (m) => `Variable '${m[1]}' of type '${m[2]}' used in position expecting type '${m[3]}'`,
  },
  {
    kind: 'UndefinedFragment',
    pattern: /^Unknown fragment "(.+?)"\./,
    message: (m) => `Undefined fragment '${m[1]}'`,
  },
  {
    kind: 'UnusedFragment',
    pattern: /^Fragment "(.+?)" is never used\./,
    message: (m) => `Unused fragment '${m[1]}'`,
  },
  {
    kind: 'FieldsConflict',
    pattern: /^Fields "(.+?)" conflict because (.+?)\. Use different aliases/,
    message: (m) => `${m[1]}: ${m[2]}`,
  },
  {
    kind: 'WrongType',
    pattern: /^(.+ cannot represent .+|Expected value of type .+)$/,
    message: (m) => m[1] ?? '',
  },
];

/** `Validation error (FieldUndefined@[stop/foo]) : Field 'foo' in type 'Stop' is undefined` */
export function validationErrors(errors: readonly GraphQLError[], document: DocumentNode): OtpGraphQLError[] {
  const paths = queryPaths(document);
  return errors.map((error) => {
    const rewrite = REWRITES.find((r) => r.pattern.test(error.message));
    const match = rewrite?.pattern.exec(error.message);
    const node = error.nodes?.[0];
    const path =
      node && (node.kind === Kind.FIELD || node.kind === Kind.ARGUMENT) ? paths.get(node) : undefined;
    const kind = rewrite?.kind ?? 'ValidationError';
    const text = rewrite && match ? rewrite.message(match) : error.message;
    const locations = locationsOf(error);
    return {
      message: `Validation error (${kind}${path ? `@[${path}]` : ''}) : ${text}`,
      ...(locations ? { locations } : {}),
      extensions: { classification: 'ValidationError' },
    };
  });
}

/** Errors that stop execution before it starts (variables, operation selection). */
export function requestErrors(errors: readonly GraphQLError[]): OtpGraphQLError[] {
  return errors.map((error) => {
    const locations = locationsOf(error);
    return {
      message: error.message,
      ...(locations ? { locations } : {}),
      extensions: { classification: 'ValidationError' },
    };
  });
}

/** A resolver failure: `Exception while fetching data (/stop) : invalid feed-scoped-id: 1040129` */
export function fieldErrors(errors: readonly GraphQLError[]): OtpGraphQLError[] {
  return errors.map((error) => {
    const path = error.path ?? [];
    const locations = locationsOf(error);
    const nonNull = error.message.startsWith('Cannot return null for non-nullable field');
    return {
      message: nonNull
        ? `The field at path '/${path.join('/')}' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.`
        : `Exception while fetching data (/${path.join('/')}) : ${error.message}`,
      ...(locations ? { locations } : {}),
      path,
      extensions: { classification: nonNull ? 'NullValueInNonNullableField' : 'DataFetchingException' },
    };
  });
}
