import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MAX_MARKUP_TEXT_LENGTH, MarkdownOption, MarkupOption, MarkupPatterns, unprocessable, type Actor } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/**
 * Gitea's markdown previews: in its public "Misc" group, but each route with reqToken, so only
 * signed-in callers render; the HTML comes back as `text/html`.
 */
@Controller('api/v1')
@Access({ signIn: true })
export class MarkupController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('markdown')
  @HttpCode(200)
  markdown(@CurrentActor() actor: Actor | null, @Body() body: MarkdownOption, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { Text, Mode, Context, Wiki } = body ?? {};
    return this.render(actor, { Text, Mode, Context, Wiki }, reply);
  }

  /** The body is the markdown itself, whatever its content type, rendered without a context. */
  @Post('markdown/raw')
  @HttpCode(200)
  markdownRaw(@CurrentActor() actor: Actor | null, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = typeof body === 'string' ? body : '';
    // The JSON routes' DTO caps Text; this body bypasses it.
    if (text.length > MAX_MARKUP_TEXT_LENGTH) throw unprocessable(`the text to render is longer than ${MAX_MARKUP_TEXT_LENGTH} characters`);
    return this.render(actor, { Text: text, Mode: 'markdown' }, reply);
  }

  @Post('markup')
  @HttpCode(200)
  markup(@CurrentActor() actor: Actor | null, @Body() body: MarkupOption, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.render(actor, body ?? {}, reply);
  }

  private async render(actor: Actor | null, body: MarkupOption, reply: FastifyReply): Promise<string> {
    const html = await this.rpc.call<string, Record<string, string>, MarkupOption>(MarkupPatterns.render, { actor, body });
    void reply.type('text/html; charset=utf-8');
    return html;
  }
}
