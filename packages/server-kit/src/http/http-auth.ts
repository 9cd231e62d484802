import type { AuthInfo } from '@modelcontextprotocol/server';
import { oauthPrincipal, type OAuthIdentity } from '../principal.js';
import type { ScopeNeed, ScopeTable } from '../scopes.js';
import { PROTECTED_RESOURCE_WELL_KNOWN, type OAuthSettings } from './oauth-settings.js';
import { BearerTokenAuth } from './security.js';
import {
  REFUSALS,
  TokenRefusal,
  type AccessTokenVerifier,
  type RefusalReason,
  type VerifiedToken,
} from './token-refusal.js';

/** An authenticated caller: who, and which scopes it holds (undefined: all, as the static token does). */
export interface Caller {
  authInfo: AuthInfo;
  scopes: ReadonlySet<string> | undefined;
}

/** A request refused by the auth layer: the HTTP answer and the reason category for the log. */
export interface AuthRefusal {
  status: number;
  reason: RefusalReason | 'insufficient-scope';
  /** The `WWW-Authenticate` header. */
  challenge: string;
  /** The JSON-RPC error message: what to do about it. */
  message: string;
}

export type AuthOutcome = { caller: Caller } | { refusal: AuthRefusal };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** An RFC 6750 challenge; values are quoted strings with `\` and `"` escaped. */
function bearerChallenge(parameters: Record<string, string | undefined>): string {
  const quoted = Object.entries(parameters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `${name}="${value.replace(/[\\"]/g, '\\$&')}"`);
  return quoted.length === 0 ? 'Bearer' : `Bearer ${quoted.join(', ')}`;
}

/** Who an OAuth token speaks for: its subject, qualified by its issuer when several issuers are trusted. */
function identityOf(token: VerifiedToken, issuerCount: number): OAuthIdentity {
  return { subject: token.subject, qualifyingIssuer: issuerCount > 1 ? token.issuer : undefined };
}

/** The token's fingerprint (what `AuthInfo.token` carries: no handler ever sees the token itself). */
function fingerprintOf(token: string): string {
  return `oauth-${new BearerTokenAuth(token).clientId.slice('token-'.length)}`;
}

export interface HttpAuthOptions {
  /** The static bearer token (`SWITCHYARD_TOKEN`): full access for the operator's single user or demo. */
  token: string | undefined;
  oauth: OAuthSettings | undefined;
  /** Checks OAuth access tokens (required with `oauth`; see `createTokenVerifier`). */
  verifier: AccessTokenVerifier | undefined;
  scopes: ScopeTable;
}

/**
 * Who may call `/mcp`. With OAuth, an access token from a trusted issuer for this resource (checked as a JWT,
 * or by introspection when configured), and per request the scope the tool, resource or prompt needs; with the
 * static token, that token (every scope). Both may be set: the static token is checked first.
 */
export class HttpAuth {
  private readonly staticToken: BearerTokenAuth | undefined;
  private readonly verifier: AccessTokenVerifier | undefined;
  private readonly metadataPaths: ReadonlySet<string>;

  constructor(private readonly options: HttpAuthOptions) {
    const { token, oauth } = options;
    this.staticToken = token === undefined ? undefined : new BearerTokenAuth(token);
    this.verifier = oauth === undefined ? undefined : options.verifier;
    this.metadataPaths =
      oauth === undefined
        ? new Set()
        : new Set([PROTECTED_RESOURCE_WELL_KNOWN, new URL(oauth.metadataUrl).pathname]);
  }

  /** True when requests must authenticate. */
  get required(): boolean {
    return this.staticToken !== undefined || this.options.oauth !== undefined;
  }

  /** The Protected Resource Metadata document (RFC 9728) when `path` is one of its URLs and OAuth is on. */
  protectedResourceMetadata(path: string): Record<string, unknown> | undefined {
    const { oauth, scopes } = this.options;
    if (oauth === undefined || !this.metadataPaths.has(path)) return undefined;
    return {
      resource: oauth.resource.href,
      authorization_servers: oauth.issuers,
      scopes_supported: scopes.supported,
      bearer_methods_supported: ['header'],
      resource_name: 'Switchyard MCP server',
    };
  }

  async authenticate(authorization: string | undefined): Promise<AuthOutcome> {
    const presented = BEARER.exec(authorization ?? '')?.[1];
    if (presented === undefined) return { refusal: this.refusal('missing') };
    const byStaticToken = this.staticToken?.authenticate(authorization);
    if (byStaticToken !== undefined) return { caller: { authInfo: byStaticToken, scopes: undefined } };
    if (this.verifier === undefined) return { refusal: this.refusal('inactive') };
    let token: VerifiedToken;
    try {
      token = await this.verifier.verify(presented);
    } catch (error) {
      if (error instanceof TokenRefusal) return { refusal: this.refusal(error.reason) };
      throw error;
    }
    const oauth = this.options.oauth as OAuthSettings;
    const identity = identityOf(token, oauth.issuers.length);
    const authInfo: AuthInfo = {
      token: fingerprintOf(presented),
      clientId: token.clientId,
      scopes: token.scopes,
      expiresAt: token.expiresAt,
      resource: oauth.resource,
      resourceMetadataUrl: oauth.metadataUrl,
      extra: { principal: oauthPrincipal(identity.subject, identity.qualifyingIssuer), oauth: identity },
    };
    return { caller: { authInfo, scopes: new Set(token.scopes) } };
  }

  /** The 403 step-up answer when `caller` lacks the scope `need` names, else undefined. */
  checkScope(caller: Caller | undefined, need: ScopeNeed | undefined): AuthRefusal | undefined {
    if (caller?.scopes === undefined || need === undefined || caller.scopes.has(need.scope)) return undefined;
    return {
      status: 403,
      reason: 'insufficient-scope',
      challenge: bearerChallenge({
        error: 'insufficient_scope',
        scope: need.scope,
        resource_metadata: this.options.oauth?.metadataUrl,
        error_description: `${need.target} needs the scope ${need.scope}`,
      }),
      message:
        `Forbidden: ${need.target} needs the OAuth scope "${need.scope}", which this access token lacks; ` +
        'ask the authorization server for a token with it',
    };
  }

  private refusal(reason: RefusalReason): AuthRefusal {
    const { status, description } = REFUSALS[reason];
    const { oauth, scopes } = this.options;
    if (oauth === undefined) {
      return {
        status: 401,
        reason,
        challenge: 'Bearer realm="switchyard"',
        message: 'Unauthorized: send the header "Authorization: Bearer <token>"',
      };
    }
    // RFC 6750 §3: no error code when the request carried no token at all.
    const tokenRefused = reason !== 'missing' && status === 401;
    return {
      status,
      reason,
      challenge: bearerChallenge({
        ...(tokenRefused ? { error: 'invalid_token', error_description: description } : {}),
        resource_metadata: oauth.metadataUrl,
        scope: scopes.requested.join(' '),
      }),
      message: `${status === 401 ? 'Unauthorized' : 'Unavailable'}: ${description}`,
    };
  }
}
