package dev.weir.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;

import dev.weir.journal.JournalDirectory;

/**
 * What the directory of a {@code weir run --kafka} instance says about it, as {@code weir inspect} and {@code weir stat}
 * show it: the status file {@code DIR/kafka/status} the instance rewrites every second (its group, topic, totals, then
 * one line per owned partition: committed offset, lag, watermark, outputs, last checkpoint), read once. Read it again
 * for newer values. Immutable; {@link #read} may run on any thread of any process.
 *
 * @param directory the instance's directory, absolute.
 * @param writtenAt when the instance last wrote the file.
 * @param text      the file's text.
 */
public record KafkaInstanceStatus(Path directory, FileTime writtenAt, String text)
{
    /**
     * @param directory a directory: a Kafka instance's, or a journal.
     * @return the instance's status, or empty if the directory is not a Kafka instance's (a journal, say).
     * @throws UncheckedIOException if the status file is there but cannot be read.
     */
    public static Optional<KafkaInstanceStatus> read(final Path directory)
    {
        final Path status = directory.resolve("kafka").resolve("status");
        if (!Files.isRegularFile(status) || Files.exists(directory.resolve(JournalDirectory.MARKER_FILE)))
        {
            return Optional.empty();
        }
        try
        {
            final FileTime written = Files.getLastModifiedTime(status);
            return Optional.of(new KafkaInstanceStatus(directory.toAbsolutePath(), written, Files.readString(status)));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + status, ex);
        }
    }

    /**
     * @return a line naming the instance and when its status was written, then the status file's text.
     */
    public String describe()
    {
        return "Kafka instance " + directory + " (status written " + writtenAt + ")" + System.lineSeparator() + text;
    }
}
