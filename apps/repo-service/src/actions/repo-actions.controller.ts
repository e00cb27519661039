import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RepoActionsPatterns, type RpcRequest, type WorkflowFiles, type WorkflowFilesRequest } from '@gitforge/contracts';
import { WorkflowFilesReader } from './workflow-files.reader.js';

@Controller()
export class RepoActionsController {
  constructor(private readonly reader: WorkflowFilesReader) {}

  @MessagePattern(RepoActionsPatterns.workflowFiles)
  workflowFiles(@Payload() req: RpcRequest<Record<string, string>, WorkflowFilesRequest>): Promise<WorkflowFiles> {
    return this.reader.read(req.body);
  }
}
