package dev.weir.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.JournalDirectory;

/**
 * What {@code weir inspect} and {@code weir stat} show for the directory of a {@code weir run --kafka} instance: the
 * status file {@code DIR/kafka/status} the instance rewrites every second (its group, topic, totals, then one line per
 * owned partition: committed offset, lag, watermark, outputs, last checkpoint). Stateless; thread-safe.
 */
final class KafkaInstanceStatus
{
    private KafkaInstanceStatus()
    {
    }

    /**
     * @param directory a directory given to inspect or stat.
     * @return the status file if the directory is a Kafka instance's (and not a journal), else null.
     */
    static Path of(final Path directory)
    {
        final Path status = directory.resolve("kafka").resolve("status");
        return Files.isRegularFile(status) && !Files.exists(directory.resolve(JournalDirectory.MARKER_FILE)) ? status : null;
    }

    /**
     * @param status the status file.
     * @param out    where to print it.
     */
    static void print(final Path status, final PrintStream out)
    {
        try
        {
            out.println("Kafka instance " + status.getParent().getParent().toAbsolutePath() + " (status written "
                + Files.getLastModifiedTime(status) + ")");
            out.print(Files.readString(status));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + status, ex);
        }
        out.flush();
    }
}
