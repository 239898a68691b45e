import { invalid } from "../errors.ts";
import { COMMON_PASSWORDS } from "./common-passwords.ts";

export const MIN_PASSWORD_LENGTH = 10;
/** argon2 hashes whatever it is given; a bound keeps one request from costing more than others. */
export const MAX_PASSWORD_LENGTH = 1000;

/** Throws 400 unless `password` is long enough and not one of the most common passwords. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    throw invalid(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  if (length > MAX_PASSWORD_LENGTH)
    throw invalid(`The password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  if (COMMON_PASSWORDS.has(password.toLowerCase()))
    throw invalid("This password is among the most common ones; choose another");
}
