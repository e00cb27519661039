/**
 * Attachments travel as bytes, which do not cross the message transport: the gateway streams
 * uploads and downloads to issue-service's own HTTP listener (as it streams smart HTTP to
 * repo-service's) with the caller signed into a header.
 */
export const AttachmentHttp = {
  /** Name of issue-service's listener in platform's internal HTTP lookup. */
  listener: 'issue-attachments',
  /** The multipart form field that carries the file (Gitea's `attachment`). */
  field: 'attachment',
} as const;
