import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RepoContentPatterns,
  type ChangeFilesOptions,
  type CreateFileOptions,
  type DeleteFileOptions,
  type FileDeleteResponse,
  type FileResponse,
  type FilesResponse,
  type RpcRequest,
  type UpdateFileOptions,
} from '@gitforge/contracts';
import { FilesService } from './files.service.js';

type PathParams = { owner: string; repo: string; filepath: string };

@Controller()
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @MessagePattern(RepoContentPatterns.createFile)
  create(@Payload() req: RpcRequest<PathParams, CreateFileOptions>): Promise<FileResponse> {
    return this.files.create(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.body);
  }

  @MessagePattern(RepoContentPatterns.updateFile)
  update(@Payload() req: RpcRequest<PathParams, UpdateFileOptions>): Promise<FileResponse> {
    return this.files.update(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.body);
  }

  @MessagePattern(RepoContentPatterns.deleteFile)
  delete(@Payload() req: RpcRequest<PathParams, DeleteFileOptions>): Promise<FileDeleteResponse> {
    return this.files.delete(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.body);
  }

  @MessagePattern(RepoContentPatterns.changeFiles)
  changeFiles(@Payload() req: RpcRequest<{ owner: string; repo: string }, ChangeFilesOptions>): Promise<FilesResponse> {
    return this.files.changeFiles(req.actor, req.params.owner, req.params.repo, req.body);
  }
}
