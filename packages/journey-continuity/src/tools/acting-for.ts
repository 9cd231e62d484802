import { SwitchyardError } from '@switchyard/contracts/errors';
import type { OAuthCaller, RequestCall, ToolCall } from '@switchyard/server-kit';
import type { JourneyOperation } from '../journeys/database-errors.js';
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

/** RFC 9562 §4: a UUID's hex digits mean the same in either case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A user id or an OAuth subject as journeys key it: a UUID in lower case, anything else as it is (a subject
 * that is not a UUID may be case-sensitive: `Alice` and `alice` can be two users).
 */
function userKey(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : id;
}

/**
 * The owner of an OAuth user's journeys: the principal of `subject` as `userKey` spells it. The user's own
 * calls and a backend's calls for that user_id arrive at the same owner, whatever case the token carries.
 */
function ownerOfUser(oauth: OAuthCaller, subject: string): string {
  return oauth.principalOf(userKey(subject));
}

/** What the ownership rule reads of a tool call or a resource read: who calls, with which token. */
type Asker = Pick<ToolCall | RequestCall, 'principal' | 'oauth' | 'logger'>;

/** The owner of the caller's own journeys (without OAuth: its principal). */
export function ownOwner(call: Asker): string {
  return call.oauth === undefined ? call.principal : ownerOfUser(call.oauth, call.oauth.subject);
}

/**
 * `ownOwner`, after the journeys the caller stored under its token's own spelling (before owners were keyed
 * by `userKey`) have moved to it: nothing a user saved is lost when the spelling of its principal changes.
 */
async function ownOwnerAdopting(
  call: Asker,
  service: JourneyService,
  operation: JourneyOperation,
): Promise<string> {
  const owner = ownOwner(call);
  if (owner !== call.principal) await service.adoptJourneys(call.principal, owner, operation);
  return owner;
}

function isAdmin(call: Asker): boolean {
  return call.oauth?.scopes.has(JOURNEY_ADMIN_SCOPE) ?? false;
}

function audit(call: Asker, owner: string, details: Record<string, unknown>): void {
  if (owner === call.principal || owner === ownOwner(call)) return;
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
export async function actorForUser(
  call: ToolCall,
  service: JourneyService,
  userId: string | undefined,
): Promise<JourneyActor> {
  const oauth = call.oauth;
  const owner = await ownOwnerAdopting(call, service, 'getOrCreateJourney');
  const user = userId === undefined ? undefined : userKey(userId);
  if (oauth === undefined || user === undefined) return { owner, userId: user };
  if (user === userKey(oauth.subject)) return { owner, userId: user };
  if (!isAdmin(call)) throw new SwitchyardError('validation', NOT_YOUR_USER_ID);
  const usersOwner = ownerOfUser(oauth, user);
  audit(call, usersOwner, { userId: user });
  return { owner: usersOwner, userId: user };
}

/**
 * The owner a journey_id tool works as: the caller, or with the admin scope whoever of the caller's issuer
 * owns the journey. Any other journey then answers 404 like a missing one.
 */
export async function actorForJourney(
  call: ToolCall,
  service: JourneyService,
  journeyId: string,
  operation: JourneyOperation,
): Promise<Caller> {
  return actorForOwner(call, service, operation, () => service.ownerOf(journeyId, operation), {
    journeyId: journeyId.toLowerCase(),
  });
}

/** The owner a session read works as, by the same rule as `actorForJourney`, for the session's journey. */
export async function actorForSession(
  call: RequestCall,
  service: JourneyService,
  sessionId: string,
): Promise<Caller> {
  return actorForOwner(call, service, 'readSession', () => service.ownerOfSession(sessionId), {
    sessionId: sessionId.toLowerCase(),
  });
}

/** The caller's own owner, or with the admin scope the owner `ownerOf` finds when it is of the caller's issuer. */
async function actorForOwner(
  call: Asker,
  service: JourneyService,
  operation: JourneyOperation,
  ownerOf: () => Promise<string | undefined>,
  audited: Record<string, string>,
): Promise<Caller> {
  const own = { owner: await ownOwnerAdopting(call, service, operation) };
  const oauth = call.oauth;
  if (oauth === undefined || !isAdmin(call)) return own;
  const owner = await ownerOf();
  if (owner === undefined || !owner.startsWith(oauth.issuerPrefix)) return own;
  audit(call, owner, audited);
  return { owner };
}
