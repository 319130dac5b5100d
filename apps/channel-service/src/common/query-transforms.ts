/**
 * Query strings arrive as text: these turn a plain integer ("12", "-3") or boolean ("true",
 * "false") into its value and leave anything else as it came, so the DTO's validators name the
 * field when it is not one (class-validator's own conversion would turn "abc" into NaN or true).
 */
export const queryInt = ({ value }: { value: unknown }): unknown => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

export const queryBool = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);
