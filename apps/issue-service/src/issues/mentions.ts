/**
 * `@login` mentions in Markdown, as Gitea's references.FindAllMentionsMarkdown finds them: an
 * `@` at the start or after a space or opening punctuation, a valid user name, and no word
 * character right after it. Code spans and blocks are skipped.
 */
const MENTION = /(?:^|[\s(["'])@([0-9A-Za-z](?:[0-9A-Za-z]|[-._](?=[0-9A-Za-z]))*)(?![\w@])/g;

export function mentionedLogins(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION)) found.add(match[1]!.toLowerCase());
  return [...found];
}
