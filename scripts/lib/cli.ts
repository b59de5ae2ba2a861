/** What the command-line scripts share: a usage error, and how a script's exit code and failures are reported. */

/** A mistake in the command line: the script prints it with its usage and exits with 2. */
export class UsageError extends Error {}

/**
 * Runs a script's `main` and exits with its code. A usage error (ours, or one from `node:util` parseArgs)
 * prints the message and the usage and exits with 2; any other failure goes to `report` and exits with 1.
 */
export function runCli(main: () => Promise<number>, usage: string, report: (error: unknown) => void): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
        console.error(`${error.message}\n${usage}`)
        process.exit(2)
      }
      report(error)
      process.exit(1)
    }
  )
}
