/**
 * The {@code weir} command: one class per subcommand (picocli), the exports of the output
 * journal (through weir-files) and the delivery to PostgreSQL. Usage errors exit 2 with one line;
 * a run whose results could not be delivered exits 4; any other failure exits 1.
 * <p>
 * Threading: each command runs on the main thread, except a following run's delivery thread and the
 * signal handler's stop.
 * <p>
 * Depends on every other module; nothing depends on it.
 */
package dev.weir.cli;
