package dev.weir.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * Forces a Chronicle Queue's files to disk. Chronicle writes through memory-mapped files, so a document
 * survives a process crash as soon as it is written, but a machine crash only once the kernel has
 * written the pages back; fsync on each queue file makes that happen now (on Linux the page cache is
 * shared with the mapping). Stateless and thread-safe; slow (milliseconds): never on the hot path.
 */
final class QueueSync
{
    private QueueSync()
    {
    }

    static void force(final SingleChronicleQueue queue)
    {
        final Path dir = queue.file().toPath();
        try (Stream<Path> files = Files.list(dir))
        {
            files.filter(p -> p.getFileName().toString().endsWith(".cq4") || p.getFileName().toString().endsWith(".cq4t"))
                .forEach(QueueSync::forceFile);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot sync " + dir, ex);
        }
    }

    private static void forceFile(final Path file)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot sync " + file, ex);
        }
    }
}
