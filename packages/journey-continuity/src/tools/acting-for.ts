import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RequestCall, ToolCall } from '@switchyard/server-kit';
import type { FAILED_STEP } from '../journeys/database-errors.js';
import type { Caller, JourneyService } from '../journeys/journey-service.js';

/**
 * The OAuth scope of a trusted backend that acts for many users (the seed's origin system): it may name any
 * user_id, and reach the journeys of every principal of its own issuer. Operators grant it to such a
 * backend only; every use for another principal is logged.
 */
export const JOURNEY_ADMIN_SCOPE = 'journey:admin';

/** Who a journey tool works as, and for which user (the user_id as stored: lower case). */
export interface JourneyActor extends Caller {
  userId?: string;
}

const NOT_YOUR_USER_ID =
  'user_id must be your own user id (the subject of your access token) or be omitted for a new anonymous ' +
  `journey; acting for other users needs the OAuth scope ${JOURNEY_ADMIN_SCOPE}`;

/** What the ownership rule reads of a tool call or a resource read: who calls, with which token. */
type Asker = Pick<ToolCall | RequestCall, 'principal' | 'oauth' | 'logger'>;

function isAdmin(call: Asker): boolean {
  return call.oauth?.scopes.has(JOURNEY_ADMIN_SCOPE) ?? false;
}

function audit(call: Asker, owner: string, details: Record<string, unknown>): void {
  if (owner === call.principal) return;
  call.logger.info('acting for another principal', {
    audit: true,
    principal: call.principal,
    owner,
    scope: JOURNEY_ADMIN_SCOPE,
    ...details,
  });
}

/**
 * The owner and user of a get_or_create_journey call. Without OAuth (stdio, the static token) the caller is
 * trusted for its own users: each principal has its own user_id namespace. With OAuth a user_id is the
 * caller's own subject; with the admin scope it names that user's journey, owned by that user's principal.
 */
export function actorForUser(call: ToolCall, userId: string | undefined): JourneyActor {
  const user = userId?.toLowerCase();
  const oauth = call.oauth;
  if (oauth === undefined || user === undefined) return { owner: call.principal, userId: user };
  if (user === oauth.subject.toLowerCase()) return { owner: call.principal, userId: user };
  if (!isAdmin(call)) throw new SwitchyardError('validation', NOT_YOUR_USER_ID);
  const owner = oauth.principalOf(user);
  audit(call, owner, { userId: user });
  return { owner, userId: user };
}

/**
 * The owner a journey_id tool works as: the caller, or with the admin scope whoever of the caller's issuer
 * owns the journey. Any other journey then answers 404 like a missing one.
 */
export async function actorForJourney(
  call: ToolCall,
  service: JourneyService,
  journeyId: string,
  operation: keyof typeof FAILED_STEP,
): Promise<Caller> {
  return actorForOwner(call, () => service.ownerOf(journeyId, operation), {
    journeyId: journeyId.toLowerCase(),
  });
}

/** The owner a session read works as, by the same rule as `actorForJourney`, for the session's journey. */
export async function actorForSession(
  call: RequestCall,
  service: JourneyService,
  sessionId: string,
): Promise<Caller> {
  return actorForOwner(call, () => service.ownerOfSession(sessionId), { sessionId: sessionId.toLowerCase() });
}

async function actorForOwner(
  call: Asker,
  ownerOf: () => Promise<string | undefined>,
  audited: Record<string, string>,
): Promise<Caller> {
  const oauth = call.oauth;
  if (oauth === undefined || !isAdmin(call)) return { owner: call.principal };
  const owner = await ownerOf();
  if (owner === undefined || !owner.startsWith(oauth.issuerPrefix)) return { owner: call.principal };
  audit(call, owner, audited);
  return { owner };
}
