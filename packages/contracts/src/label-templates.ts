/** Gitea's LabelTemplate: one label of a template, as `GET /label/templates/{name}` shows it (color without `#`). */
export interface LabelTemplate {
  name: string;
  exclusive: boolean;
  color: string;
  description: string;
}

const label = (color: string, name: string, description: string, exclusive = false): LabelTemplate => ({ name, exclusive, color, description });

/**
 * The label sets a repository can start with (CreateRepoOption's `issue_labels`), under the names
 * and with the labels Gitea ships, so a client that asks for one finds the labels it knows.
 */
export const LabelTemplates: Readonly<Record<string, readonly LabelTemplate[]>> = {
  Advanced: [
    label('ee0701', 'Kind/Bug', 'Something is not working'),
    label('0288d1', 'Kind/Feature', 'New functionality'),
    label('84b6eb', 'Kind/Enhancement', 'Improve existing functionality'),
    label('9c27b0', 'Kind/Security', 'This is security issue'),
    label('795548', 'Kind/Testing', 'Issue or pull request related to testing'),
    label('c62828', 'Kind/Breaking', "Breaking change that won't be backward compatible"),
    label('37474f', 'Kind/Documentation', 'Documentation changes'),
    label('616161', 'Reviewed/Duplicate', 'This issue or pull request already exists', true),
    label('546e7a', 'Reviewed/Invalid', 'Invalid issue', true),
    label('795548', 'Reviewed/Confirmed', 'Issue has been confirmed', true),
    label('eeeeee', "Reviewed/Won't Fix", "This issue won't be fixed", true),
    label('424242', 'Status/Need More Info', 'Feedback is required to reproduce issue or to continue work', true),
    label('880e4f', 'Status/Blocked', 'Something is blocking this issue or pull request', true),
    label('222222', 'Status/Abandoned', 'Somebody has started to work on this but abandoned work', true),
    label('b71c1c', 'Priority/Critical', 'The priority is critical', true),
    label('d32f2f', 'Priority/High', 'The priority is high', true),
    label('e64a19', 'Priority/Medium', 'The priority is medium', true),
    label('4caf50', 'Priority/Low', 'The priority is low', true),
  ],
  Default: [
    label('ee0701', 'bug', 'Something is not working'),
    label('cccccc', 'duplicate', 'This issue or pull request already exists'),
    label('84b6eb', 'enhancement', 'New feature'),
    label('128a0c', 'help wanted', 'Need some help'),
    label('e6e6e6', 'invalid', 'Something is wrong'),
    label('cc317c', 'question', 'More information is needed'),
    label('ffffff', 'wontfix', "This won't be fixed"),
  ],
};

/** The template names, in the order `GET /label/templates` lists them. */
export const LabelTemplateNames: readonly string[] = Object.keys(LabelTemplates).sort();

/** A template's labels, or undefined for an unknown name (looked up exactly, as Gitea does). */
export function labelTemplate(name: string): readonly LabelTemplate[] | undefined {
  return Object.hasOwn(LabelTemplates, name) ? LabelTemplates[name] : undefined;
}
