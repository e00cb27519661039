import { formatTime, type Attachment } from '@gitforge/contracts';
import type { AttachmentEntity } from './attachment.entity.js';

/** Gitea's ToAPIAttachment for issue and comment assets: downloads go through `{ROOT_URL}attachments/{uuid}`. */
export function toAttachment(a: AttachmentEntity, rootUrl: string): Attachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: formatTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: `${rootUrl}attachments/${a.uuid}`,
  };
}
