import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ContractError } from '@gitforge/contracts';

const pascal = (name: string): string =>
  name
    .split(/[_\s]+/)
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('');

/** Gitea's rule names for class-validator's constraints. */
const RULES: Record<string, string> = {
  isNotEmpty: 'Required',
  isDefined: 'Required',
  maxLength: 'MaxSize',
  minLength: 'MinSize',
  arrayMaxSize: 'MaxSize',
  isEmail: 'Email',
  isIn: 'In',
  isUrl: 'Url',
  isInt: 'Int',
  isBoolean: 'Bool',
  isString: 'String',
  isArray: 'Array',
  isISO8601: 'Date',
  isDateString: 'Date',
  min: 'Min',
  max: 'Max',
};

function firstError(errors: ValidationError[], prefix: string[] = []): { field: string; rule: string } | undefined {
  for (const e of errors) {
    const path = [...prefix, e.property];
    if (e.constraints && Object.keys(e.constraints).length > 0) {
      // class-validator lists constraints in reverse declaration order; report the first declared one.
      const keys = Object.keys(e.constraints).reverse();
      // A missing field is reported as Required whatever else its rules say, as Gitea's binding does.
      const key = keys.includes('isNotEmpty') ? 'isNotEmpty' : keys.includes('isDefined') ? 'isDefined' : keys[0]!;
      return { field: path.map(pascal).join('.'), rule: RULES[key] ?? key };
    }
    const nested = firstError(e.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/** Formats the first validation error as Gitea's binding does: `[Name]: Required`. */
export function validationMessage(errors: ValidationError[]): string {
  const first = firstError(errors);
  return first ? `[${first.field}]: ${first.rule}` : 'validation failed';
}

/** A request refused by the gateway's validation (422, or 400 for a body that is no JSON), before any service has looked at it. */
export class InvalidInput extends ContractError {
  constructor(message: string, code: 'unprocessable' | 'invalid_argument' = 'unprocessable') {
    super(code, message);
  }
}

/**
 * The gateway's validation: unknown fields are dropped (Gitea ignores them and clients send extras),
 * the first bad field answers 422 in Gitea's words.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validateCustomDecorators: false,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new InvalidInput(validationMessage(errors)),
  });
}
