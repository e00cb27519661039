import { mergeFormKeys } from './repo-pulls.controller.js';

describe(mergeFormKeys.name, () => {
  it('should read the form’s fields in any case, the first spelling winning', () => {
    expect(mergeFormKeys({ do: 'squash', DO: 'merge', mergetitlefield: 'title', HEAD_COMMIT_ID: 'abc', unknown: 1 })).toEqual({
      Do: 'squash',
      MergeTitleField: 'title',
      head_commit_id: 'abc',
    });
  });

  it('should prefer the documented snake_case names, and fall back to the old ones when they are empty', () => {
    expect(mergeFormKeys({ MergeTitleField: 'old', merge_title_field: 'new', merge_message_field: '', MergeMessageField: 'kept', Merge_Commit_ID: 'c0ffee' })).toEqual({
      MergeTitleField: 'new',
      MergeMessageField: 'kept',
      MergeCommitID: 'c0ffee',
    });
  });

  it('should answer nothing for a body that is no object', () => {
    expect(mergeFormKeys(null)).toEqual({});
    expect(mergeFormKeys(['Do'])).toEqual({});
  });
});
