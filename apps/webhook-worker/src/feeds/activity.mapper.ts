import { formatTime, type Activity, type Repository, type User } from '@gitforge/contracts';
import type { ActionEntity } from './action.entity.js';

/** Gitea's convert.ToActivity: the repository and actor as the viewer sees them now. */
export function toActivity(a: ActionEntity, repo: Repository | null, actUser: User | null): Activity {
  return {
    id: a.id,
    user_id: a.userId,
    op_type: a.opType,
    act_user_id: a.actUserId,
    act_user: actUser,
    repo_id: a.repoId,
    repo,
    // Gitea fills the comment fields only when the comment still exists; comments have no service yet.
    comment_id: 0,
    comment: null,
    ref_name: a.refName,
    is_private: a.isPrivate,
    content: a.content,
    created: formatTime(a.createdAt),
  };
}
