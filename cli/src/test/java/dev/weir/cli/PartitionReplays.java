package dev.weir.cli;

import java.nio.file.Path;

/**
 * What the partition tests share: a {@code weir replay} into an {@code --output-dir}, run in this JVM, and the
 * path of one day's CSV partition. Stateless.
 */
final class PartitionReplays
{
    private PartitionReplays()
    {
    }

    /** {@code weir replay --journal JOURNAL --output-dir=OUT FLAGS...}, in this JVM. */
    static Cli replay(final Path journal, final Path out, final String... flags)
    {
        final String[] args = new String[4 + flags.length];
        args[0] = "replay";
        args[1] = "--journal";
        args[2] = journal.toString();
        args[3] = "--output-dir=" + out;
        System.arraycopy(flags, 0, args, 4, flags.length);
        return Cli.run(args);
    }

    /** @return the CSV partition of a UTC date ({@code YYYY-MM-DD}) under {@code out} */
    static Path part(final Path out, final String date)
    {
        return out.resolve("date=" + date).resolve("results.csv");
    }
}
