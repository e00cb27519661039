import { IsBoolean, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

/** `PATCH …/actions/runners/{runner_id}` (Gitea's EditActionRunnerOption). */
export class EditActionRunnerOption {
  @IsDefined()
  @IsBoolean()
  disabled!: boolean;
}

/** `POST …/actions/variables/{variablename}`. */
export class CreateVariableOption {
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(65536)
  value!: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string;
}

/** `PUT …/actions/variables/{variablename}`: an empty or absent `name` keeps the current name. */
export class UpdateVariableOption {
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(65536)
  value!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string;
}

/** `PUT …/actions/secrets/{secretname}`. */
export class CreateOrUpdateSecretOption {
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(65536)
  data!: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string;
}

/** `POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches`. */
export class CreateActionWorkflowDispatch {
  @IsDefined()
  @IsString()
  @MaxLength(255)
  ref!: string;

  @IsOptional()
  @IsObject()
  inputs?: Record<string, string>;
}
