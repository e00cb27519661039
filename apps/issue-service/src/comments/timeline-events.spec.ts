import { CommentType } from './comment-type.js';
import { deadlineEvent } from './timeline-events.js';

describe(deadlineEvent.name, () => {
  const may = new Date('2026-05-01T23:59:59Z');
  const june = new Date('2026-06-02T23:59:59Z');

  it("should write the new day when a due date is added, as Gitea's createDeadlineComment", () => {
    expect(deadlineEvent(null, may)).toEqual({ type: CommentType.added_deadline, content: '2026-05-01' });
  });

  it('should write the new and the old day when it is modified', () => {
    expect(deadlineEvent(may, june)).toEqual({
      type: CommentType.modified_deadline,
      content: '2026-06-02|2026-05-01',
    });
  });

  it('should write the old day when it is removed', () => {
    expect(deadlineEvent(june, null)).toEqual({ type: CommentType.removed_deadline, content: '2026-06-02' });
  });

  it('should write nothing when it does not change', () => {
    expect(deadlineEvent(null, null)).toBeNull();
    expect(deadlineEvent(may, new Date(may.getTime()))).toBeNull();
  });
});
