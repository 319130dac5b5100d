import { Matches } from 'class-validator';

/** At least one character that is not white space: `"   "` names nothing, as `""` does not (a 400 naming the field). */
export const NotBlank = (): PropertyDecorator => Matches(/\S/, { message: '$property must not be blank' });
