import { followersOf } from './followers.js';

describe(followersOf.name, () => {
  it('should count the poster and the commenters as followers without any choice', () => {
    expect(followersOf(1, [3, 2, 3], [])).toEqual([1, 2, 3]);
  });

  it('should add users who subscribed and drop participants who unsubscribed', () => {
    expect(
      followersOf(
        1,
        [2, 3],
        [
          { userId: 9, isWatching: true },
          { userId: 1, isWatching: false },
          { userId: 3, isWatching: false },
        ],
      ),
    ).toEqual([2, 9]);
  });

  it('should ignore an unsubscription by someone who never took part', () => {
    expect(followersOf(1, [], [{ userId: 5, isWatching: false }])).toEqual([1]);
  });
});
