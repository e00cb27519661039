/** A query value as Gitea's ctx.FormBool reads it: Go's strconv.ParseBool true spellings, or `on` in any case; anything else is false. */
export function formBool(value: string | undefined): boolean {
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value ?? '') || value?.toLowerCase() === 'on';
}
