import { IsIn, IsOptional } from 'class-validator';

/** `PUT /repos/{owner}/{repo}/collaborators/{collaborator}`; the permission defaults to `write`. */
export class AddCollaboratorOption {
  @IsOptional()
  @IsIn(['read', 'write', 'admin'])
  permission?: 'read' | 'write' | 'admin';
}
