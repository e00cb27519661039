import { CollaborationEntity } from './access/collaboration.entity.js';
import { Repositories1763800000200 } from './migrations/1763800000200-repositories.js';
import { Collaboration1763800000201 } from './migrations/1763800000201-collaboration.js';
import { Protections1763800000210 } from './migrations/1763800000210-protections.js';
import { CommitStatuses1763800000220 } from './migrations/1763800000220-commit-statuses.js';
import { IssueCounters1763800000230 } from './migrations/1763800000230-issue-counters.js';
import { CommitStatusIndex1763800000240 } from './migrations/1763800000240-commit-status-index.js';
import { ForkIndex1763800000250 } from './migrations/1763800000250-fork-index.js';
import { Releases1763800000270 } from './migrations/1763800000270-releases.js';
import { BranchProtectionEntity } from './protections/branch-protection.entity.js';
import { TagProtectionEntity } from './protections/tag-protection.entity.js';
import { ReleaseAssetEntity, ReleaseEntity } from './releases/release.entity.js';
import { RepositoryEntity } from './repos/repository.entity.js';
import { CommitStatusIndexEntity } from './statuses/commit-status-index.entity.js';
import { CommitStatusEntity } from './statuses/commit-status.entity.js';

export const RepoServiceEntities = [RepositoryEntity, CollaborationEntity, BranchProtectionEntity, TagProtectionEntity, CommitStatusEntity, CommitStatusIndexEntity, ReleaseEntity, ReleaseAssetEntity];
export const RepoServiceMigrations = [Repositories1763800000200, Collaboration1763800000201, Protections1763800000210, CommitStatuses1763800000220, IssueCounters1763800000230, CommitStatusIndex1763800000240, ForkIndex1763800000250, Releases1763800000270];
