import { CreateTagProtectionOption } from './create-tag-protection-option.dto.js';

/** `PATCH /repos/{owner}/{repo}/tag_protections/{id}`: the same fields as on creation; only those present change. */
export class EditTagProtectionOption extends CreateTagProtectionOption {}
