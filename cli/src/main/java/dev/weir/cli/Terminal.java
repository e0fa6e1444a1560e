package dev.weir.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether standard output or standard error is a terminal, so that carriage returns and ANSI escape codes
 * (a redrawn progress line, a cleared screen) go to a terminal only, never to a pipe or a file. On Linux the
 * answer is the stream's own ({@code /proc/self/fd/N} names a {@code /dev/pts} or {@code /dev/tty} device);
 * elsewhere it is the JVM's ({@link System#console()}: standard input and output both terminals).
 * Stateless and thread-safe.
 */
final class Terminal
{
    private Terminal()
    {
    }

    /** @return whether standard output is a terminal. */
    static boolean standardOutput()
    {
        return isTerminal(1);
    }

    /** @return whether standard error is a terminal. */
    static boolean standardError()
    {
        return isTerminal(2);
    }

    private static boolean isTerminal(final int descriptor)
    {
        final String device;
        try
        {
            device = Files.readSymbolicLink(Path.of("/proc/self/fd/" + descriptor)).toString();
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return System.console() != null;
        }
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || "/dev/console".equals(device);
    }
}
