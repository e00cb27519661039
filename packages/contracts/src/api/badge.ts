/** Gitea's `Badge` (modules/structs): a badge of the site's catalogue, shown on the profiles of the users who have it. */
export class Badge {
  id!: number;
  slug!: string;
  description!: string;
  /** Empty when the badge has no image. */
  image_url!: string;
}
