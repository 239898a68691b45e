/**
 * A failure the client reports as one message on stderr. `exitCode` 2 marks a mistake in the
 * command line or configuration (nothing was sent), 1 everything that went wrong afterwards, so
 * scripts can tell "fix the invocation" from "the server or network said no".
 */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
    /** A mistake in the command line itself: the verb's usage is shown after the message. */
    readonly showUsage = false,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new ClientError(message, 2);
export const commandLineError = (message: string) => new ClientError(message, 2, true);
