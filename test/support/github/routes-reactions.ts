// Reactions on issue comments and a collaborator's permission, as GitHub's REST API answers them:
// a reaction the same user already left is answered 200 with the existing one (201 when new), an
// unknown content is 422; the permission endpoint maps roles to the legacy base roles (maintain is
// write, triage is read) and names the role in `role_name`. A person with no role on a private
// repository has `none`.
import { notFound, paginate, requireString, unprocessable, type Router, type RouteContext } from './http-kit.js';
import type { CollaboratorRole, ReactionRecord, RepoState, StandInState } from './state.js';

type Context = RouteContext<StandInState>;

/** The contents GitHub's reactions API accepts. */
export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];

const repoOf = (context: Context): RepoState => context.state.repo(context.params.owner, context.params.repo);

function reactionBody(state: StandInState, reaction: ReactionRecord): Record<string, unknown> {
  return {
    id: reaction.id,
    node_id: `REA_${reaction.id}`,
    user: state.userBody(reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  };
}

const LEGACY: Record<CollaboratorRole, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
};

function permissionsOf(role: CollaboratorRole | undefined): Record<string, boolean> {
  const order: CollaboratorRole[] = ['read', 'triage', 'write', 'maintain', 'admin'];
  const rank = role ? order.indexOf(role) : -1;
  return { admin: rank >= 4, maintain: rank >= 3, push: rank >= 2, triage: rank >= 1, pull: rank >= 0 };
}

export function registerReactionRoutes(router: Router<StandInState>): void {
  router.add('POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', (context) => {
    const repo = repoOf(context);
    const commentId = Number(context.params.comment_id);
    if (!repo.comments.has(commentId)) throw notFound();
    const content = requireString(context.body, 'content');
    if (!REACTION_CONTENTS.includes(content))
      throw unprocessable('Validation Failed', [{ resource: 'Reaction', field: 'content', code: 'invalid' }]);
    const existing = repo.reactions.find(
      (reaction) => reaction.commentId === commentId && reaction.content === content && reaction.user === context.actor,
    );
    if (existing) return { status: 200, body: reactionBody(context.state, existing) };
    const reaction = {
      id: context.state.id(),
      commentId,
      content,
      user: context.actor,
      createdAt: context.state.timestamp(),
    };
    repo.reactions.push(reaction);
    return { status: 201, body: reactionBody(context.state, reaction) };
  });
  router.add('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', (context) => {
    const repo = repoOf(context);
    const commentId = Number(context.params.comment_id);
    if (!repo.comments.has(commentId)) throw notFound();
    const content = context.query.get('content');
    const reactions = repo.reactions.filter(
      (reaction) => reaction.commentId === commentId && (!content || reaction.content === content),
    );
    return paginate(
      context,
      reactions.map((reaction) => reactionBody(context.state, reaction)),
    );
  });
  router.add('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', (context) => {
    const repo = repoOf(context);
    const login = context.params.username;
    const role = repo.collaborators.get(login);
    const base = role ? LEGACY[role] : repo.private ? 'none' : 'read';
    const user = { ...context.state.userBody(login), permissions: permissionsOf(role), role_name: role ?? base };
    return { status: 200, body: { permission: base, role_name: role ?? base, user } };
  });
}
