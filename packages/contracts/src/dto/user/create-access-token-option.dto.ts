import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /users/{username}/tokens`. */
export class CreateAccessTokenOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  name!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  scopes?: string[];
}
