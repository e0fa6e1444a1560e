package dev.weir.engine.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The dirty pages of this process's file mappings, from Linux's {@code /proc/self/smaps}: a page written
 * through a mapping stays dirty until the kernel writes it back (an fsync of the file does it at once).
 * Stateless and thread-safe.
 */
final class DirtyPages
{
    private DirtyPages()
    {
    }

    /**
     * @param suffix a file name ending, e.g. {@code .cq4}.
     * @param inPath a part of the mapped file's path, e.g. {@code /events/}.
     * @return the KiB dirty (shared and private) in every mapping of such a file.
     */
    static long kib(final String suffix, final String inPath) throws IOException
    {
        long kib = 0;
        boolean matching = false;
        for (final String line : Files.readAllLines(Path.of("/proc/self/smaps")))
        {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*"))
            {
                final String mapped = line.trim();
                matching = mapped.endsWith(suffix) && mapped.contains(inPath);
            }
            else if (matching && (line.startsWith("Shared_Dirty:") || line.startsWith("Private_Dirty:")))
            {
                kib += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return kib;
    }
}
