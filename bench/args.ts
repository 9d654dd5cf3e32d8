/** The bench scripts' one way to read an integer flag (`--name N`), with the bad value in the error. */
export function integerArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(process.argv[index + 1])}`);
  return value;
}
