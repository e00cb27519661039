import { formatTime, type Activity, type Comment, type Repository, type User } from '@gitforge/contracts';
import type { ActionEntity } from './action.entity.js';

/** Gitea's convert.ToActivity: the repository and actor as the viewer sees them now. */
export function toActivity(a: ActionEntity, repo: Repository | null, actUser: User | null): Activity {
  const comment = a.commentJson ? (JSON.parse(a.commentJson) as Comment) : null;
  return {
    id: a.id,
    user_id: a.userId,
    op_type: a.opType,
    act_user_id: a.actUserId,
    act_user: actUser,
    repo_id: a.repoId,
    repo,
    // Gitea fills both only for an entry whose comment it found; here, one the entry stores.
    comment_id: comment ? a.commentId : 0,
    comment,
    ref_name: a.refName,
    is_private: a.isPrivate,
    content: a.content,
    created: formatTime(a.createdAt),
  };
}
