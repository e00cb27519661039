/**
 * The program git runs through the pre-receive and post-receive hooks (`core.hooksPath` holds two
 * shell lines that exec it with the hook's name). It hands git's ref updates, and the environment
 * that sees a push's quarantined objects, to the repo-service process that started the push over
 * a loopback HTTP call authenticated by that push's token, then turns the answer into the hook's
 * exit status and the client's `remote:` lines. It imports nothing but Node: it starts once per
 * hook call, and the shorter that start the faster every push.
 */
import { request } from 'node:http';

interface HookReply {
  ok?: boolean;
  messages?: string[];
}

const PASSED_ENV = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'];

function fail(): never {
  process.stderr.write('Gitea: the push could not be checked\n');
  process.exit(1);
}

async function main(): Promise<void> {
  const hook = process.argv[2];
  const url = process.env.GITFORGE_HOOK_URL;
  if (!hook || !url) fail();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const env: Record<string, string> = {};
  for (const key of PASSED_ENV) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  const req = request(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.GITFORGE_HOOK_TOKEN ?? ''}` } },
    (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        let answer: HookReply;
        try {
          answer = JSON.parse(Buffer.concat(parts).toString('utf8')) as HookReply;
        } catch {
          return fail();
        }
        for (const line of answer.messages ?? []) process.stderr.write(`${line}\n`);
        process.exit(res.statusCode === 200 && answer.ok ? 0 : 1);
      });
    },
  );
  req.on('error', fail);
  req.end(JSON.stringify({ hook, input: Buffer.concat(chunks).toString('utf8'), env }));
}

void main().catch(fail);
