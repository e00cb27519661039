import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** Gitea's project templates: the columns a new project starts with. */
export const ProjectTemplateTypes = ['none', 'basic_kanban', 'bug_triage'] as const;
/** Gitea's project card types. */
export const ProjectCardTypes = ['text_only', 'images_and_text'] as const;

/** `POST /repos/{owner}/{repo}/projects` and `POST /orgs/{org}/projects` (Gitea's CreateProjectForm). */
export class CreateProjectOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  @MaxLength(100)
  title!: string;

  @IsOptional()
  @IsString()
  description?: string;

  /** `none` (default: one "Uncategorized" column), `basic_kanban` or `bug_triage`. */
  @IsOptional()
  @IsIn(ProjectTemplateTypes)
  template_type?: (typeof ProjectTemplateTypes)[number];

  /** `text_only` (default) or `images_and_text`. */
  @IsOptional()
  @IsIn(ProjectCardTypes)
  card_type?: (typeof ProjectCardTypes)[number];
}
