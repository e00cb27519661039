/** A query value as Gitea's ctx.FormBool reads it (Go's strconv.ParseBool): anything but its true spellings is false. */
export function formBool(value: string | undefined): boolean {
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value ?? '');
}
